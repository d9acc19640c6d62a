import {
  activeAuthMethods,
  activeSessions,
  type AuthMethodRecord,
  type AuthMethodType,
  type SessionRecord,
  type WalletAuthState,
} from './wallet-auth-state.js';

/** The API shapes of the wallet-auth resources (AuthMethod, AuthSession without the sealed key). */
export interface AuthMethodView {
  id: string;
  accountId: string;
  type: AuthMethodType;
  nickname: string;
  createdAt: string;
  updatedAt: string;
  credentialId?: string;
}

export interface AuthSessionView extends Omit<AuthMethodView, 'id'> {
  id: string;
  expiresAt: string;
}

export function toAuthMethodView(state: WalletAuthState, m: AuthMethodRecord): AuthMethodView {
  return {
    id: m.id,
    accountId: state.accountId ?? '',
    type: m.type,
    nickname: m.nickname,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    ...(m.passkey ? { credentialId: m.passkey.credentialId } : {}),
  };
}

/** A session shows the fields of the credential that issued it, with its own id and times. */
export function toAuthSessionView(state: WalletAuthState, s: SessionRecord): AuthSessionView {
  const m = state.authMethods.get(s.authMethodId);
  return {
    id: s.id,
    accountId: state.accountId ?? '',
    type: m?.type ?? 'EMAIL_OTP',
    nickname: m?.nickname ?? '',
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(m?.passkey ? { credentialId: m.passkey.credentialId } : {}),
    expiresAt: s.expiresAt,
  };
}

export const listAuthMethods = (state: WalletAuthState): AuthMethodView[] =>
  activeAuthMethods(state).map((m) => toAuthMethodView(state, m));

export const listAuthSessions = (state: WalletAuthState, now: string): AuthSessionView[] =>
  activeSessions(state, now).map((s) => toAuthSessionView(state, s));
