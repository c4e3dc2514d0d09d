/** Every route of the app in one table; build links with getHref, never by hand. */
function withQuery(path: string, query: Record<string, string | null | undefined>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export const paths = {
  launcher: { path: '/', getHref: () => '/' },
  login: {
    path: '/login',
    getHref: (loginRedirect?: string | null) => withQuery('/login', { login_redirect: loginRedirect }),
  },
  signUp: { path: '/sign-up', getHref: () => '/sign-up' },
  resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
  noInternet: {
    path: '/no_internet',
    getHref: (onlineRedirect?: string | null) =>
      withQuery('/no_internet', { online_redirect: onlineRedirect }),
  },
  noSubscription: { path: '/no_subscription', getHref: () => '/no_subscription' },
  socialCallback: {
    path: '/auth/:provider/callback',
    getHref: (provider: 'facebook' | 'google') => `/auth/${provider}/callback`,
  },
  acapella: { path: '/auth_acapella', getHref: () => '/auth_acapella' },

  speak: { path: '/speak', getHref: () => '/speak' },
  dictate: { path: '/dictate', getHref: () => '/dictate' },
  menu: { path: '/menu', getHref: () => '/menu' },
  modePicker: { path: '/mode_picker', getHref: () => '/mode_picker' },
  integrations: { path: '/integrations', getHref: () => '/integrations' },
  contactUs: { path: '/contact_us', getHref: () => '/contact_us' },
  subscription: { path: '/subscription', getHref: () => '/subscription' },

  record: { path: '/record', getHref: () => '/record' },
  recordPersonalVocabulary: {
    path: '/record/personal_vocabulary',
    getHref: () => '/record/personal_vocabulary',
  },
  recordShortcutPhrases: { path: '/record/shortcut_phrases', getHref: () => '/record/shortcut_phrases' },
  recordImportSamples: { path: '/record/import_samples', getHref: () => '/record/import_samples' },
  recordTutorial: { path: '/record/tutorial', getHref: () => '/record/tutorial' },
  recordTraining: {
    path: '/record/training/:variant',
    getHref: (variant: string) => `/record/training/${variant}`,
  },
  recordNotes: { path: '/record/notes', getHref: () => '/record/notes' },
  shortcutPhrase: {
    path: '/record/shortcut_phrases/:id',
    getHref: (id: string) => `/record/shortcut_phrases/${id}`,
  },
  shortcutPhraseEdit: {
    path: '/record/shortcut_phrases/:id/edit',
    getHref: (id: string) => `/record/shortcut_phrases/${id}/edit`,
  },
  shortcutPhraseAdd: { path: '/record/shortcut_phrases/add', getHref: () => '/record/shortcut_phrases/add' },
  vocabularyItem: {
    path: '/record/personal_vocabulary/:id',
    getHref: (id: string) => `/record/personal_vocabulary/${id}`,
  },
  vocabularyItemEdit: {
    path: '/record/personal_vocabulary/:id/edit',
    getHref: (id: string) => `/record/personal_vocabulary/${id}/edit`,
  },
  vocabularyItemAdd: {
    path: '/record/personal_vocabulary/add',
    getHref: () => '/record/personal_vocabulary/add',
  },
  importManual: { path: '/record/import_samples/manual', getHref: () => '/record/import_samples/manual' },
  importApple: { path: '/record/import_samples/apple', getHref: () => '/record/import_samples/apple' },
  importRelate: { path: '/record/import_samples/relate', getHref: () => '/record/import_samples/relate' },

  settings: { path: '/settings', getHref: () => '/settings/general' },
  settingsAudio: { path: '/settings/audio', getHref: () => '/settings/audio' },
  settingsProfile: { path: '/settings/profile', getHref: () => '/settings/profile' },
  settingsGeneral: { path: '/settings/general', getHref: () => '/settings/general' },
  settingsExtra: { path: '/settings/extra', getHref: () => '/settings/extra' },
  settingsChangePassword: { path: '/settings/change_password', getHref: () => '/settings/change_password' },

  webex: { path: '/webex', getHref: () => '/webex' },
  webexLogin: { path: '/webex/login', getHref: () => '/webex/login' },
  webexGuest: { path: '/webex/guest', getHref: () => '/webex/guest' },
} as const;

/** Routes a locked subscription may still open (spec section 2). */
export const LOCKED_SUBSCRIPTION_ALLOWED = [
  paths.launcher.path,
  paths.menu.path,
  paths.subscription.path,
] as const;
