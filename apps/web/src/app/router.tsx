import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { LoadingScreen } from '../components/feedback/loading-screen';
import { paths } from '../config/paths';
import { installSessionHandlers } from '../lib/api';
import { endSession } from '../lib/session';
import { GuestOnly, ProfileGuard, RequireAuth, SubscriptionGuard } from './guards';
import { RootLayout, RouteErrorFallback } from './root-layout';
import { NoInternetRoute } from './routes/no-internet';

/** A route whose screen loads on first visit, so that each page costs only where it is used. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

const notFound = page(
  () => import('./routes/not-found'),
  (m) => m.NotFoundRoute,
);

const privateRoutes: RouteObject[] = [
  {
    index: true,
    ...page(
      () => import('./routes/launcher'),
      (m) => m.LauncherRoute,
    ),
  },
  {
    path: paths.speak.path,
    ...page(
      () => import('./routes/speak'),
      (m) => m.SpeakRoute,
    ),
  },
  {
    path: paths.dictate.path,
    ...page(
      () => import('./routes/dictate'),
      (m) => m.DictateRoute,
    ),
  },
  {
    path: paths.menu.path,
    ...page(
      () => import('./routes/menu'),
      (m) => m.MenuRoute,
    ),
  },
  {
    path: paths.modePicker.path,
    ...page(
      () => import('./routes/mode-picker'),
      (m) => m.ModePickerRoute,
    ),
  },
  {
    path: paths.integrations.path,
    ...page(
      () => import('./routes/integrations'),
      (m) => m.IntegrationsRoute,
    ),
  },
  {
    path: paths.contactUs.path,
    ...page(
      () => import('./routes/contact-us'),
      (m) => m.ContactUsRoute,
    ),
  },
  {
    path: paths.subscription.path,
    ...page(
      () => import('./routes/subscription'),
      (m) => m.SubscriptionRoute,
    ),
  },
  {
    path: paths.record.path,
    ...page(
      () => import('./routes/record'),
      (m) => m.RecordLayoutRoute,
    ),
    children: [
      {
        index: true,
        ...page(
          () => import('./routes/record-phrases'),
          (m) => m.RecordPhrasesRoute,
        ),
      },
      {
        path: 'personal_vocabulary',
        ...page(
          () => import('./routes/record-vocabulary'),
          (m) => m.VocabularyRoute,
        ),
      },
      {
        path: 'shortcut_phrases',
        ...page(
          () => import('./routes/record-shortcuts'),
          (m) => m.ShortcutPhrasesRoute,
        ),
      },
      {
        path: 'import_samples',
        ...page(
          () => import('./routes/record-imports'),
          (m) => m.ImportSamplesRoute,
        ),
      },
    ],
  },
  {
    path: paths.recordTutorial.path,
    ...page(
      () => import('./routes/record-guides'),
      (m) => m.RecordTutorialRoute,
    ),
  },
  {
    path: paths.recordTraining.path,
    ...page(
      () => import('./routes/record-training'),
      (m) => m.RecordTrainingRoute,
    ),
  },
  {
    path: paths.recordNotes.path,
    ...page(
      () => import('./routes/record-guides'),
      (m) => m.RecordNotesRoute,
    ),
  },
  {
    path: paths.shortcutPhraseAdd.path,
    ...page(
      () => import('./routes/record-shortcuts'),
      (m) => m.ShortcutPhraseAddRoute,
    ),
  },
  {
    path: paths.shortcutPhrase.path,
    ...page(
      () => import('./routes/record-shortcuts'),
      (m) => m.ShortcutPhraseRoute,
    ),
  },
  {
    path: paths.shortcutPhraseEdit.path,
    ...page(
      () => import('./routes/record-shortcuts'),
      (m) => m.ShortcutPhraseEditRoute,
    ),
  },
  {
    path: paths.vocabularyItemAdd.path,
    ...page(
      () => import('./routes/record-vocabulary'),
      (m) => m.VocabularyAddRoute,
    ),
  },
  {
    path: paths.vocabularyItem.path,
    ...page(
      () => import('./routes/record-vocabulary'),
      (m) => m.VocabularyItemRoute,
    ),
  },
  {
    path: paths.vocabularyItemEdit.path,
    ...page(
      () => import('./routes/record-vocabulary'),
      (m) => m.VocabularyEditRoute,
    ),
  },
  {
    path: paths.importManual.path,
    ...page(
      () => import('./routes/record-imports'),
      (m) => m.ImportManualRoute,
    ),
  },
  {
    path: paths.importApple.path,
    ...page(
      () => import('./routes/record-imports'),
      (m) => m.ImportAppleRoute,
    ),
  },
  {
    path: paths.importRelate.path,
    ...page(
      () => import('./routes/record-imports'),
      (m) => m.ImportRelateRoute,
    ),
  },
  {
    path: paths.settings.path,
    ...page(
      () => import('./routes/settings/settings-layout'),
      (m) => m.SettingsLayoutRoute,
    ),
    children: [
      {
        path: 'audio',
        ...page(
          () => import('./routes/settings/audio'),
          (m) => m.AudioSettingsRoute,
        ),
      },
      {
        path: 'profile',
        ...page(
          () => import('./routes/settings/profile'),
          (m) => m.ProfileSettingsRoute,
        ),
      },
      {
        path: 'general',
        ...page(
          () => import('./routes/settings/general'),
          (m) => m.GeneralSettingsRoute,
        ),
      },
      {
        path: 'extra',
        ...page(
          () => import('./routes/settings/extra'),
          (m) => m.ExtraSettingsRoute,
        ),
      },
      {
        path: 'change_password',
        ...page(
          () => import('./routes/settings/change-password'),
          (m) => m.ChangePasswordRoute,
        ),
      },
      {
        path: '*',
        ...page(
          () => import('./routes/settings/settings-layout'),
          (m) => m.SettingsFallbackRoute,
        ),
      },
      {
        index: true,
        ...page(
          () => import('./routes/settings/settings-layout'),
          (m) => m.SettingsFallbackRoute,
        ),
      },
    ],
  },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorFallback />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      {
        errorElement: <RouteErrorFallback />,
        children: [
          {
            path: paths.login.path,
            element: <GuestOnly />,
            children: [
              {
                index: true,
                ...page(
                  () => import('./routes/auth/login'),
                  (m) => m.LoginRoute,
                ),
              },
            ],
          },
          {
            path: paths.signUp.path,
            ...page(
              () => import('./routes/auth/sign-up'),
              (m) => m.SignUpRoute,
            ),
          },
          {
            path: paths.resetPassword.path,
            ...page(
              () => import('./routes/auth/reset-password'),
              (m) => m.ResetPasswordRoute,
            ),
          },
          // Not split: it must show when nothing more can be loaded.
          { path: paths.noInternet.path, element: <NoInternetRoute /> },
          {
            path: paths.noSubscription.path,
            ...page(
              () => import('./routes/no-subscription'),
              (m) => m.NoSubscriptionRoute,
            ),
          },
          {
            path: paths.socialCallback.path,
            ...page(
              () => import('./routes/auth/external'),
              (m) => m.SocialCallbackRoute,
            ),
          },
          {
            path: paths.acapella.path,
            ...page(
              () => import('./routes/auth/external'),
              (m) => m.AcapellaRoute,
            ),
          },
          {
            path: paths.webex.path,
            children: [
              {
                path: 'login',
                ...page(
                  () => import('./routes/webex'),
                  (m) => m.WebexLoginRoute,
                ),
              },
              {
                path: 'guest',
                ...page(
                  () => import('./routes/webex'),
                  (m) => m.WebexGuestRoute,
                ),
              },
              {
                element: <RequireAuth loginPath={paths.webexLogin.path} />,
                children: [
                  {
                    index: true,
                    ...page(
                      () => import('./routes/webex'),
                      (m) => m.WebexRoute,
                    ),
                  },
                ],
              },
              { path: '*', ...notFound },
            ],
          },
          {
            element: <RequireAuth />,
            children: [
              {
                element: <ProfileGuard />,
                children: [{ element: <SubscriptionGuard />, children: privateRoutes }],
              },
            ],
          },
          { path: '*', ...notFound },
        ],
      },
    ],
  },
];

/** Creates the router (it reads the address at once) and lets it act on session events. */
export function createAppRouter() {
  const router = createBrowserRouter(routes);
  // The API client reports ended sessions and lost connections; the router acts on them.
  installSessionHandlers({
    onForcedSignOut(cause) {
      const restriction =
        cause.kind === 'legal_restriction' ? { reason: cause.reason, details: cause.details } : null;
      void endSession({ sendEvent: false, restriction }).then(() => {
        if (restriction) void router.navigate(paths.login.getHref());
      });
    },
    onNetworkError() {
      const { pathname, search } = router.state.location;
      if (pathname === paths.noInternet.path) return;
      void router.navigate(paths.noInternet.getHref(`${pathname}${search}`));
    },
  });
  return router;
}
