import type { ResourceAbandoned } from '../claims/claim.js';
import type { Unset } from '../decider.js';
import type { InternalAccountRecord, KycStatus } from '../customers/customer.js';
import type { CardBrand } from './card-issuer.js';
import type { SpendingControls, SpendingDeclineReason, SpendUsage } from './card-spending.js';
import type { AuthorizationDecision } from './card-decision.js';

/**
 * A card: its lifecycle state, its ordered funding sources (the holder's internal accounts) and
 * the authorizations made with it. One stream per card (`card-<uuid>`); money itself moves only in
 * the platform's ledger stream, the card stream records what each authorization did there.
 */
export type CardState = 'PENDING_KYC' | 'PENDING_ISSUE' | 'ACTIVE' | 'FROZEN' | 'CLOSED';
export type CardStateReason = 'ISSUER_REJECTED' | 'CLOSED_BY_PLATFORM' | 'CLOSED_BY_SERVICE';
export type CardForm = 'VIRTUAL';
/** States a platform may request with PATCH /cards/{id}. */
export type RequestedCardState = 'ACTIVE' | 'FROZEN' | 'CLOSED';

/** The Card resource exactly as the API returns it and as `card.*` events carry it. */
export interface CardSnapshot {
  id: string;
  customerId: string;
  state: CardState;
  stateReason: CardStateReason | null;
  form: CardForm;
  fundingSources: string[];
  platformCardId: string;
  brand: CardBrand;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  panEmbedUrl: string | null;
  currency: string;
  issuerRef: string;
  /** The card's own spending controls (absent or null: the platform's `cardSpendingControls` apply). */
  spendingControls?: SpendingControls | null;
  createdAt: string;
  updatedAt: string;
}

/** What the card needs to know about the holder's accounts, read from the customer stream. */
export type HolderAccount = Pick<InternalAccountRecord, 'id' | 'type' | 'currency' | 'status'>;

export type ReversalReason = 'CARD_CLOSED' | 'EXPIRED' | 'PULL_FAILED' | ProcessorReversalReason;
/** The card processor reported the authorization reversed (the merchant cancelled it). */
export type ProcessorReversalReason = 'NETWORK_REVERSAL';
export type AuthorizationStatus = 'APPROVED' | 'DECLINED' | 'CLEARED' | 'REVERSED';
export type DeclineReason =
  | 'CARD_PAUSED'
  | 'CARD_CLOSED'
  | 'CARD_NOT_ACTIVE'
  | 'CURRENCY_MISMATCH'
  | 'INSUFFICIENT_FUNDS'
  | SpendingDeclineReason
  | 'PLATFORM_DECLINED'
  | StandInDeclineReason;
/**
 * Declines no rule of the service decided: its own stand-in answer when it could not decide within the processor's
 * deadline (STAND_IN), or the network's decline in stand-in, reported by an advice (NETWORK_DECLINED).
 */
export type StandInDeclineReason = 'STAND_IN' | 'NETWORK_DECLINED';

/** How the card was presented, as card processors report it. */
export const ENTRY_MODES = [
  'CHIP',
  'CONTACTLESS',
  'ECOMMERCE',
  'MAGSTRIPE',
  'MANUAL',
  'CREDENTIAL_ON_FILE',
  'UNKNOWN',
] as const;
export type EntryMode = (typeof ENTRY_MODES)[number];

export interface Merchant {
  descriptor: string;
  mcc?: string;
  country?: string;
}

/** One network message applied to an authorization, newest last. Amounts are decimal strings. */
export interface AuthorizationActivity {
  type: 'AUTHORIZATION' | 'INCREMENT' | 'CLEARING' | 'RETURN' | 'REVERSAL';
  amount: string;
  /** The network's id of an incremental authorization or a partial reversal: each applies once. */
  networkTransactionId?: string;
  result: 'APPROVED' | 'DECLINED';
  declineReason?: DeclineReason;
  /** A clearing that arrived after the hold was released (card closed): posted as a new transfer. */
  latePresentment?: boolean;
  /**
   * Why a REVERSAL happened: the card closed, the authorization expired uncleared, or (sandbox) the pull on
   * the funding source was reported failed after the approval.
   */
  reversalReason?: ReversalReason;
  createdAt: string;
}

/** An authorization as the card stream keeps it (amounts as decimal strings, ledger ids inside). */
interface AuthorizationFields {
  id: string;
  cardId: string;
  customerId: string;
  amount: string;
  currency: string;
  merchant: Merchant;
  /** What `holdTransferId` holds when a partial clearing re-held the rest (absent: the authorized amount). */
  heldAmount?: string;
  /**
   * The pending holds, oldest first, once an incremental authorization added one (absent: the one hold
   * `holdTransferId` of `heldAmount`); `heldAmount` is then their total and `holdTransferId` the first.
   */
  holds?: AuthorizationHold[];
  /** Every ledger transfer this authorization created, for audit. */
  transferIds: string[];
  clearedAmount: string;
  returnedAmount: string;
  latePresentment: boolean;
  activity: AuthorizationActivity[];
  /** Who decided the authorization and how long it took (absent on authorizations recorded before this was kept). */
  decision?: AuthorizationDecision;
  /** The amount the network asked for, when the platform approved less (a partial approval: `amount` is held). */
  requestedAmount?: string;
  createdAt: string;
  updatedAt: string;
  /** The network's id of the authorization, when a card processor sent it. */
  networkTransactionId?: string;
  /** How the card was presented, when a card processor reported it. */
  entryMode?: EntryMode;
}

/** One pending ledger transfer holding part of an authorization on its funding source. */
export interface AuthorizationHold {
  transferId: string;
  /** Decimal string. */
  amount: string;
}

/** An authorization that placed a hold: it opened a card transaction (cleared or reversed since, maybe). */
export interface ApprovedAuthorization extends AuthorizationFields {
  status: 'APPROVED' | 'CLEARED' | 'REVERSED';
  declineReason: null;
  /** The funding source that approved it (holds, pays and receives refunds). */
  fundingSourceId: string;
  /** The pending ledger transfer placed on approval (after a partial clearing: the one holding the rest). */
  holdTransferId: string;
}

/** An authorization refused: no hold, no transaction. */
export interface DeclinedAuthorization extends AuthorizationFields {
  status: 'DECLINED';
  declineReason: DeclineReason;
  fundingSourceId: null;
  holdTransferId: null;
}

export type CardAuthorizationRecord = ApprovedAuthorization | DeclinedAuthorization;

/** A card transaction as folded from the card stream (see card-transaction.ts). */
export interface Tally {
  count: number;
  total: bigint;
}

export interface CardTransactionState {
  id: string;
  authorizationId: string;
  cardId: string;
  customerId: string;
  /** The funding source that approved the authorization: it holds, pays and is refunded. */
  accountId: string;
  currency: string;
  merchant: Merchant;
  authorizedAmount: bigint;
  /** What the authorization's hold still reserves on the funding source (0 once posted or released). */
  held: bigint;
  /** Debits of the funding source: the hold (cut to what posted, or to 0 when released) and post-hoc pulls. */
  pulls: Tally;
  settlements: Tally;
  refunds: Tally;
  /** The network cleared it but the funding source could not pay (no clearing posted since). */
  exception: boolean;
  /** The hold was released (expired, card closed) with no clearing since: a clearing is a late presentment. */
  released: boolean;
  authorizedAt: string;
  lastEventAt?: string;
  /** Who approved the authorization (see AuthorizationDecision). */
  decision?: AuthorizationDecision;
  updatedAt: string;
}

/** What a card stream holds from the card's creation on. */
interface CardRecord {
  platformId: string;
  /** The holder's EMBEDDED_WALLET account whose sessions sign changes to this card. */
  walletAccountId: string;
  issuanceSeed: string;
  card: CardSnapshot;
}

/** What every card stream holds, before the card's creation too (empty then). */
interface CardHoldings {
  /** A claim this id made was taken over before the card was created: it never will be. */
  abandoned?: boolean;
  sandbox: boolean;
  authorizations: Map<string, CardAuthorizationRecord>;
  /** The approved authorizations as the public API's CardTransactions, by `CardTransaction:<uuid>`. */
  transactions: Map<string, CardTransactionState>;
  /** requestIds of the signed PATCHes applied to this card: each applies at most once. */
  signedRequests: Set<string>;
  /** Clearings decided on this stream whose ledger legs may not be posted yet, by authorization id. */
  clearings: Map<string, ClearingIntent>;
  /** What the spending controls' daily and monthly limits count (see card-spending.ts); absent before an approval. */
  spendUsage?: SpendUsage;
}

/** A card created (closed or not). */
export type ExistingCard = { exists: true } & CardRecord & CardHoldings;

export type CardAggregate = ({ exists: false } & Unset<CardRecord> & CardHoldings) | ExistingCard;

/**
 * A clearing reserved on the card stream before the ledger moves: the decision is taken with the
 * stream's expected revision, so of two processes clearing one authorization only one decides; the
 * other joins the same intent (same ledger legs, same derived transfer ids) or is refused.
 */
export interface ClearingIntent {
  authorizationId: string;
  /** Decimal string. */
  amount: string;
  latePresentment: boolean;
  startedAt: string;
}

type AuthorizationEventType =
  | 'CardAuthorizationRecorded'
  | 'CardAuthorizationCleared'
  | 'CardClearingDeclined'
  | 'CardAuthorizationReturned'
  | 'CardAuthorizationReversed'
  /** An incremental authorization approved: the amount grew by a second hold. */
  | 'CardAuthorizationIncremented'
  /** An incremental authorization declined: the authorization stands as it was. */
  | 'CardIncrementDeclined'
  /** A reversal of part of the held amount: that much released, the rest still held. */
  | 'CardAuthorizationPartiallyReversed';

export type CardEvent =
  | {
      type: 'CardCreated';
      data: {
        platformId: string;
        cardId: string;
        walletAccountId: string;
        issuanceSeed: string;
        sandbox: boolean;
        card: CardSnapshot;
      };
    }
  | {
      type: 'CardStateChanged';
      data: { platformId: string; cardId: string; previousState: CardState; card: CardSnapshot };
    }
  | {
      type: 'CardFundingSourcesChanged';
      data: { platformId: string; cardId: string; previousFundingSources: string[]; card: CardSnapshot };
    }
  /** Appended with the changes of a signed PATCH (also when they change nothing). */
  | { type: 'SignedRequestApplied'; data: { platformId: string; cardId: string; requestId: string } }
  | {
      type: 'CardSpendingControlsChanged';
      data: {
        platformId: string;
        cardId: string;
        previousSpendingControls: SpendingControls | null;
        card: CardSnapshot;
      };
    }
  | { type: 'CardClearingStarted'; data: { platformId: string; cardId: string; clearing: ClearingIntent } }
  | {
      type: AuthorizationEventType;
      data: { platformId: string; cardId: string; authorization: CardAuthorizationRecord };
    }
  | ResourceAbandoned;

export type CardAuthorizationCommand =
  /** The outcome of an authorization request: a hold the caller placed, or a decline. */
  | {
      type: 'RecordAuthorization';
      authorizationId: string;
      amount: bigint;
      currency: string;
      merchant: Merchant;
      hold?: { fundingSourceId: string; transferId: string };
      declineReason?: DeclineReason;
      /** The platform's `cardSpendingControls`: they apply when the card has none of its own. */
      defaultSpendingControls?: SpendingControls | null;
      decision?: AuthorizationDecision;
      /** A partial approval: what was asked for (`amount` is what the platform approved). */
      requestedAmount?: bigint;
      now: string;
      networkTransactionId?: string;
      entryMode?: EntryMode;
    }
  /** Reserves a clearing before its ledger legs are posted (see ClearingIntent). */
  | { type: 'StartClearing'; authorizationId: string; amount: bigint; latePresentment: boolean; now: string }
  | {
      type: 'RecordClearing';
      authorizationId: string;
      amount: bigint;
      /** Clearings posted before this one when it was reserved: a clearing already recorded is not recorded twice. */
      sequence?: number;
      outcome:
        | {
            posted: true;
            transferIds: string[];
            latePresentment: boolean;
            /** A clearing below the hold: the rest held again by a new pending transfer, for later clearings. */
            rehold?: { transferId: string; amount: bigint };
          }
        | { posted: false; declineReason: 'INSUFFICIENT_FUNDS' };
      now: string;
    }
  | { type: 'RecordReturn'; authorizationId: string; amount: bigint; transferId: string; now: string }
  /** An authorization still holding funds when its validity ends is reversed (the caller voids the hold). */
  | {
      type: 'ExpireAuthorization';
      authorizationId: string;
      reason?: 'EXPIRED' | 'PULL_FAILED' | ProcessorReversalReason;
      now: string;
    };

/** Changes to an approved authorization's holds that a card processor's follow-up messages make. */
export type CardHoldCommand =
  /** An incremental authorization: held by `hold` (on the authorization's funding source), or declined. */
  | {
      type: 'RecordIncrement';
      authorizationId: string;
      networkTransactionId: string;
      amount: bigint;
      hold?: { transferId: string };
      declineReason?: DeclineReason;
      /** The platform's default spending controls, checked again when the increment is recorded. */
      defaultSpendingControls?: SpendingControls | null;
      /** Who decided it: a stand-in's approval is recorded as taken, past the spending controls. */
      decision?: AuthorizationDecision;
      now: string;
    }
  /**
   * A reversal of `amount`, less than held: released from the last hold first; the hold it cuts into is voided
   * and its rest held again by `rehold` (absent: the funding source spent the rest meanwhile, it is released).
   */
  | {
      type: 'RecordPartialReversal';
      authorizationId: string;
      networkTransactionId: string;
      amount: bigint;
      rehold?: { transferId: string; amount: bigint };
      now: string;
    };

export type CardCommand =
  | {
      type: 'CreateCard';
      cardId: string;
      platformId: string;
      customerId: string;
      platformCardId: string;
      holderKycStatus: KycStatus;
      holderAccounts: HolderAccount[];
      fundingSources: string[];
      issuanceSeed: string;
      sandbox: boolean;
      spendingControls?: SpendingControls | null;
      now: string;
    }
  /** The holder passed KYC: a card waiting for it goes to the issuer. */
  | { type: 'ApproveHolderKyc'; now: string }
  /** The provisioning timer fired: the issuer answers. */
  | { type: 'CompleteIssuance'; now: string }
  /** The service closes the card (its holder was deleted): CLOSED_BY_SERVICE. */
  | { type: 'CloseCardByService'; now: string }
  /** `requestId`: the signed retry that authorized it (consumed in the wallet stream just before). */
  | {
      type: 'UpdateCard';
      state?: RequestedCardState;
      fundingSources?: string[];
      /** Replaces the card's own controls as a whole; null removes them. */
      spendingControls?: SpendingControls | null;
      holderAccounts: HolderAccount[];
      requestId?: string;
      now: string;
    }
  | CardAuthorizationCommand
  | CardHoldCommand;
