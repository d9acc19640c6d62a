import { Injectable } from '@nestjs/common';
import { KeyedLock } from '../command-runner-policy.js';

/**
 * Serializes the multi-step money flows of one card inside this process (authorization, clearing,
 * return, close): each reads the card, moves money in the ledger stream, then records the outcome
 * in the card stream, and two of them interleaving on one card could act on a stale view. This only
 * saves conflicts inside one process: across processes a clearing is reserved on the card stream
 * (expected revision) before its ledger legs, which carry ids derived from the authorization.
 */
@Injectable()
export class CardLocks extends KeyedLock {}
