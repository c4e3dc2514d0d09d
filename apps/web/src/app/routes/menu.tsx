import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { useUser } from '../../features/auth/api/auth.api';
import { useSubscriptionInfo } from '../../features/subscription/api/subscription.api';
import { endSession } from '../../lib/session';

interface MenuEntry {
  to: string;
  label: string;
  hint?: string;
}

/** Every place of the app in one list; with a locked subscription only what stays open is offered. */
export function MenuRoute() {
  const { t } = useTranslation();
  const user = useUser();
  const subscription = useSubscriptionInfo();
  const locked = subscription.data?.is_locked ?? false;
  const sections: { title: string; entries: MenuEntry[] }[] = [
    {
      title: t('menu.use'),
      entries: [
        { to: paths.speak.getHref(), label: t('modes.speak.title'), hint: t('menu.speakHint') },
        { to: paths.dictate.getHref(), label: t('modes.dictate.title'), hint: t('menu.dictateHint') },
        { to: paths.record.getHref(), label: t('record.title'), hint: t('menu.recordHint') },
        { to: paths.modePicker.getHref(), label: t('modePicker.title') },
        { to: paths.integrations.getHref(), label: t('integrations.title') },
      ],
    },
    {
      title: t('menu.account'),
      entries: [
        { to: paths.subscription.getHref(), label: t('subscription.title') },
        { to: paths.settingsGeneral.getHref(), label: t('settings.general.title') },
        { to: paths.settingsAudio.getHref(), label: t('settings.audio.title') },
        { to: paths.settingsProfile.getHref(), label: t('settings.profile.title') },
        { to: paths.settingsExtra.getHref(), label: t('settings.extra.title') },
        { to: paths.settingsChangePassword.getHref(), label: t('settings.changePassword.title') },
        { to: paths.contactUs.getHref(), label: t('contactUs.title') },
      ],
    },
  ];
  const open = (entry: MenuEntry) => !locked || entry.to === paths.subscription.getHref();
  return (
    <Page
      title={t('menu.title')}
      intro={user.data ? t('menu.signedInAs', { name: user.data.name, email: user.data.email }) : undefined}
      actions={
        <Button variant="outlined" onClick={() => void endSession({ sendEvent: true })}>
          {t('nav.logout')}
        </Button>
      }
    >
      {locked && (
        <Typography sx={{ mb: 2 }} role="status">
          {t('menu.lockedNotice')}
        </Typography>
      )}
      {sections
        .map((section) => ({ ...section, entries: section.entries.filter(open) }))
        .filter((section) => section.entries.length > 0)
        .map((section) => (
          <Paper
            key={section.title}
            variant="outlined"
            component="nav"
            aria-label={section.title}
            sx={{ mb: 3 }}
          >
            <Typography variant="h2" sx={{ px: 2.5, pt: 2, pb: 1 }}>
              {section.title}
            </Typography>
            <List disablePadding>
              {section.entries.map((entry, index) => (
                <li key={entry.to}>
                  {index > 0 && <Divider component="div" />}
                  <ListItemButton component={RouterLink} to={entry.to}>
                    <ListItemText
                      primary={entry.label}
                      secondary={entry.hint}
                      slotProps={{ primary: { sx: { fontSize: '1.125rem', fontWeight: 600 } } }}
                    />
                    <Box
                      component="span"
                      aria-hidden="true"
                      sx={{ fontSize: '1.75rem', color: 'primary.main', pl: 2 }}
                    >
                      ›
                    </Box>
                  </ListItemButton>
                </li>
              ))}
            </List>
          </Paper>
        ))}
    </Page>
  );
}
