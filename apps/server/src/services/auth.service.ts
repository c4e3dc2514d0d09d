import {
  APP_ID,
  consentRegionOf,
  DEFAULT_USER_SETTINGS,
  isMinor,
  type SessionResponse,
  type SignUpRequestSchema,
  type TokenPair,
} from '@parla/contract';
import type { z } from 'zod';
import type { Config } from '../config/env.js';
import {
  AppError,
  badRequest,
  emailInUse,
  gone,
  invalidCredentials,
  notFound,
  unauthorized,
} from '../errors.js';
import { newId, newOpaqueToken, newSixDigitCode, sha256 } from '../lib/crypto.js';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../lib/passwords.js';
import type { Mailer } from '../mail/mailer.js';
import { passwordResetEmail } from '../mail/templates.js';
import type { ProfilesRepository } from '../repositories/profiles.repository.js';
import type { SessionsRepository } from '../repositories/sessions.repository.js';
import type { SubscriptionsRepository } from '../repositories/subscriptions.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { AccessClaims, TokenService } from './token.service.js';
import { assertServiceAllowed } from './legal.js';
import { presentUser } from './user-presenter.js';
import { isUniqueViolation } from '../lib/database-errors.js';

type SignUpInput = z.output<typeof SignUpRequestSchema>;
interface AppCredentials {
  app_id?: string | undefined;
  api_key?: string | undefined;
}

/** Most wrong reset codes tolerated before the user must ask for a new one. */
export const MAX_RESET_ATTEMPTS = 5;
export const DEFAULT_PLAN = 'accessibility';

export interface AuthServiceDeps {
  config: Config;
  users: UsersRepository;
  profiles: ProfilesRepository;
  sessions: SessionsRepository;
  subscriptions: SubscriptionsRepository;
  tokens: TokenService;
  mailer: Mailer;
}

/** Accounts and sessions: sign-up, login, token rotation, password reset, deletion. */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  async signUp(input: SignUpInput): Promise<SessionResponse> {
    const { config, users, profiles, subscriptions } = this.deps;
    this.assertApp(input);
    assertServiceAllowed(config.restrictedRegions, input.country, input.region_code, config.productName);
    this.assertGuardianRules(input);
    if (await users.findByEmail(input.email)) throw emailInUse();

    const now = new Date();
    const id = newId();
    try {
      await users.insert({
        id,
        email: input.email,
        password_hash: await hashPassword(input.password),
        name: input.name,
        app_language: input.app_language,
        secondary_name: input.secondary_name ?? null,
        secondary_email: input.secondary_email ?? null,
        secondary_phone: input.secondary_phone ?? null,
        birthdate: input.birthdate,
        country: input.country,
        region_code: input.region_code ?? null,
        parent_email: input.parent_email ?? null,
        primary_contact_type: input.primary_contact_type,
        source_tracking: input.source_tracking ? JSON.stringify(input.source_tracking) : null,
        opt_out_audio_recognition: input.opt_out_audio_recognition,
        opt_out_audio_training: input.opt_out_audio_training,
        accepted_tos_at: now,
        accepted_privacy_policy_at: now,
        marketing_consent: input.marketing_consent ?? null,
        commercial_use_of_pii_consent: null,
        support_person_consent: input.support_person_consent,
        guardian_consent: input.guardian_consent
          ? JSON.stringify({ ...input.guardian_consent, parent_email: input.parent_email, given_at: now })
          : null,
        cookies_consent_types: input.cookies_consent_types
          ? JSON.stringify(input.cookies_consent_types)
          : null,
        providers_enabled: JSON.stringify(['casr']),
        settings: JSON.stringify(DEFAULT_USER_SETTINGS),
        updated_at: now,
      });
    } catch (error) {
      // Two sign-ups with one address at once: the unique index decides.
      if (isUniqueViolation(error)) throw emailInUse();
      throw error;
    }
    await profiles.upsert({
      user_id: id,
      name: input.name,
      country: input.country,
      region_code: input.region_code ?? null,
      native_language: input.app_language,
      role: 'end_user',
      updated_at: now,
    });
    const partner = await subscriptions.defaultPartner();
    if (partner) await subscriptions.create(id, partner.id, DEFAULT_PLAN);
    await users.recordAuthEvent(id, 'sign_up');
    return this.startSession(id);
  }

  async login(input: { email: string; password: string } & AppCredentials): Promise<SessionResponse> {
    const { config, users } = this.deps;
    this.assertApp(input);
    const user = await users.findByEmail(input.email);
    if (!user) {
      await verifyAgainstDecoy(input.password);
      throw invalidCredentials();
    }
    if (!(await verifyPassword(user.password_hash, input.password))) throw invalidCredentials();
    assertServiceAllowed(config.restrictedRegions, user.country, user.region_code, config.productName);
    await users.recordAuthEvent(user.id, 'login');
    return this.startSession(user.id);
  }

  /** Rotates a refresh token. Presenting a spent one revokes its whole family. */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const { config, users, sessions } = this.deps;
    const row = await sessions.findRefreshToken(sha256(refreshToken));
    if (!row || row.revoked_at)
      throw unauthorized('Session ended. Please sign in again.', 'INVALID_REFRESH_TOKEN');
    if (row.used_at || !(await sessions.spendRefreshToken(row.id))) {
      await sessions.revokeFamily(row.family_id);
      throw unauthorized('Session ended. Please sign in again.', 'REFRESH_TOKEN_REUSED');
    }
    if (row.expires_at.getTime() <= Date.now()) throw unauthorized('Token expired', 'TOKEN_EXPIRED');
    const user = await users.findById(row.user_id);
    if (!user) throw unauthorized('Session ended. Please sign in again.', 'INVALID_REFRESH_TOKEN');
    try {
      assertServiceAllowed(config.restrictedRegions, user.country, user.region_code, config.productName);
    } catch (error) {
      await sessions.revokeFamily(row.family_id);
      throw error;
    }
    return this.issueTokens(user.id, row.family_id);
  }

  /** Emails a reset code. Answers the same whether or not the address has an account. */
  async forgotPassword(email: string) {
    const { config, users, sessions, mailer } = this.deps;
    const user = await users.findByEmail(email);
    if (!user) return;
    const id = newId();
    const code = newSixDigitCode();
    await sessions.startPasswordReset({
      id,
      user_id: user.id,
      code_hash: sha256(`${id}:${code}`),
      expires_at: new Date(Date.now() + config.resetCodeTtlMinutes * 60_000),
    });
    await mailer.send(passwordResetEmail(user.email, config.productName, code, config.resetCodeTtlMinutes));
  }

  /** Checks a reset code and hands out the one-time token that lets the password change. */
  async validateResetCode(email: string, code: string): Promise<{ update_token: string }> {
    const { users, sessions } = this.deps;
    const user = await users.findByEmail(email);
    const reset = user && (await sessions.findOpenReset(user.id));
    if (!reset) throw badRequest('This code is not valid. Ask for a new one.', 'RESET_CODE_INVALID');
    if (reset.expires_at.getTime() <= Date.now()) {
      throw gone('This code has expired. Ask for a new one.', 'RESET_CODE_EXPIRED');
    }
    if (reset.attempts >= MAX_RESET_ATTEMPTS) {
      throw new AppError(429, 'Too many wrong codes. Ask for a new one.', 'RESET_CODE_ATTEMPTS');
    }
    if (reset.code_hash !== sha256(`${reset.id}:${code}`)) {
      await sessions.countResetAttempt(reset.id);
      throw badRequest('This code is not right. Check the email and try again.', 'RESET_CODE_WRONG');
    }
    const updateToken = newOpaqueToken();
    await sessions.setUpdateToken(reset.id, sha256(updateToken));
    return { update_token: updateToken };
  }

  async resetPassword(
    input: { update_token: string; email: string; password: string } & AppCredentials,
  ): Promise<SessionResponse> {
    const { users, sessions } = this.deps;
    this.assertApp(input);
    const reset = await sessions.findResetByUpdateToken(sha256(input.update_token));
    const user = reset && (await users.findById(reset.user_id));
    if (!reset || user?.email !== input.email) {
      throw badRequest('This reset link is not valid. Ask for a new code.', 'RESET_TOKEN_INVALID');
    }
    if (reset.expires_at.getTime() <= Date.now()) {
      throw gone('This code has expired. Ask for a new one.', 'RESET_CODE_EXPIRED');
    }
    if (!(await sessions.finishReset(reset.id))) {
      throw badRequest('This reset link is not valid. Ask for a new code.', 'RESET_TOKEN_INVALID');
    }
    await users.update(user.id, { password_hash: await hashPassword(input.password) });
    // Every other device must sign in again with the new password.
    await sessions.revokeAllOf(user.id);
    await users.recordAuthEvent(user.id, 'password_reset');
    return this.startSession(user.id);
  }

  async logAuthEvent(claims: AccessClaims, event: string) {
    await this.deps.users.recordAuthEvent(claims.userId, event);
    if (event === 'logout') await this.deps.sessions.revokeFamily(claims.sessionId);
  }

  async authorizeForSecureContent(claims: AccessClaims, userId: string, password: string) {
    if (userId !== claims.userId) throw notFound('User');
    const user = await this.deps.users.findById(userId);
    if (!user) throw notFound('User');
    if (!(await verifyPassword(user.password_hash, password))) {
      throw unauthorized('Wrong password', 'INVALID_PASSWORD');
    }
    return {
      authorized: true as const,
      secure_token: await this.deps.tokens.issueSecure(claims),
      expires_in: this.deps.tokens.secureTtlSeconds,
    };
  }

  private async startSession(userId: string): Promise<SessionResponse> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw notFound('User');
    const tokens = await this.issueTokens(userId, newId());
    return { ...tokens, user: presentUser(user, await this.deps.users.tasksOf(userId)) };
  }

  private async issueTokens(userId: string, familyId: string): Promise<TokenPair> {
    const { config, sessions, tokens } = this.deps;
    const refreshToken = newOpaqueToken();
    await sessions.insertRefreshToken({
      id: newId(),
      user_id: userId,
      family_id: familyId,
      token_hash: sha256(refreshToken),
      expires_at: new Date(Date.now() + config.refreshTokenTtlDays * 86_400_000),
    });
    return {
      access_token: await tokens.issueAccess({ userId, sessionId: familyId }),
      refresh_token: refreshToken,
      expires_in: tokens.accessTtlSeconds,
    };
  }

  private assertApp(credentials: AppCredentials) {
    if (credentials.app_id !== undefined && credentials.app_id !== APP_ID) {
      throw unauthorized('This app is not allowed to sign in', 'UNKNOWN_APP');
    }
    if (credentials.api_key !== undefined && credentials.api_key !== this.deps.config.appApiKey) {
      throw unauthorized('This app is not allowed to sign in', 'UNKNOWN_APP');
    }
  }

  private assertGuardianRules(input: SignUpInput) {
    if (input.secondary_email !== undefined || input.secondary_name !== undefined) {
      if (!input.support_person_consent) {
        throw badRequest('support_person_consent: agree to share your account with your support person');
      }
    }
    if (!isMinor(input.birthdate, input.country, input.region_code, new Date())) return;
    if (!input.parent_email)
      throw badRequest('parent_email: a parent or guardian email is required for a minor');
    if (input.parent_email === input.email) {
      throw badRequest("parent_email: must be the guardian's own address, not the user's");
    }
    const region = consentRegionOf(input.country);
    if (!input.guardian_consent) {
      throw badRequest(`guardian_consent: the guardian consent form for ${region} is required for a minor`);
    }
    if (input.guardian_consent.region !== region) {
      throw badRequest(`guardian_consent: use the consent form for ${region}`);
    }
    if (!input.support_person_consent) {
      throw badRequest('support_person_consent: a minor needs consent to involve a support person');
    }
  }
}
