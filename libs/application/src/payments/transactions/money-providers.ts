import { AssignBankCreditHandler, ReturnBankCreditHandler } from '../rails/bank-rail-commands.js';
import { BankRailQueries } from '../rails/bank-rail-queries.js';
import { LookupExternalAccountReceiverHandler, LookupUmaReceiverHandler } from '../lookups/lookup-commands.js';
import { CreateQuoteHandler, ExecuteQuoteHandler } from '../quotes/quote-commands.js';
import { AdvanceSandboxClockHandler, SandboxClockService } from '../../sandbox-clock/sandbox-clock.js';
import { TransferInHandler, TransferOutHandler } from '../transfers/transfer-commands.js';
import { MoneyQueries } from './money-queries.js';
import { PaymentProcess } from './payment-process.js';
import { SandboxSendHandler, SandboxUmaReceiveHandler } from './sandbox-payments.js';
import {
  ApproveIncomingPaymentHandler,
  ConfirmReceiptDeliveryHandler,
  RejectIncomingPaymentHandler,
} from './transaction-commands.js';

/** Command handlers of money movement: lookups, quotes, transfers, incoming payments, the sandbox clock. */
export const moneyHandlers = [
  AssignBankCreditHandler,
  ReturnBankCreditHandler,
  LookupUmaReceiverHandler,
  LookupExternalAccountReceiverHandler,
  CreateQuoteHandler,
  ExecuteQuoteHandler,
  TransferInHandler,
  TransferOutHandler,
  SandboxSendHandler,
  SandboxUmaReceiveHandler,
  ApproveIncomingPaymentHandler,
  RejectIncomingPaymentHandler,
  ConfirmReceiptDeliveryHandler,
  AdvanceSandboxClockHandler,
];

/** Injectable services of money movement, exported for the HTTP edge. */
export const moneyProviders = [PaymentProcess, MoneyQueries, SandboxClockService, BankRailQueries];
