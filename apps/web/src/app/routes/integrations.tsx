import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FeatureFlags } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { api } from '../../lib/api';

/** Integrations with other tools: what exists today, and whether it is switched on here. */
export function IntegrationsRoute() {
  const { t } = useTranslation();
  const flags = useQuery({
    queryKey: ['feature-flags'],
    queryFn: () => api.get<FeatureFlags>('/app/public/feature_flags', { auth: false }),
  });
  const captions = flags.data?.meeting_captions ?? false;
  const items = [
    {
      id: 'webex',
      title: t('integrations.webex.title'),
      body: t('integrations.webex.body'),
      enabled: captions,
      to: paths.webex.getHref(),
    },
    {
      id: 'meetings',
      title: t('integrations.meetings.title'),
      body: t('integrations.meetings.body'),
      enabled: false,
      to: null,
    },
  ];
  return (
    <Page title={t('integrations.title')} intro={t('integrations.intro')}>
      <Stack spacing={2}>
        {items.map((item) => (
          <Paper
            key={item.id}
            variant="outlined"
            component="section"
            aria-labelledby={`integration-${item.id}`}
            sx={{ p: { xs: 2.5, sm: 3 } }}
          >
            <Stack
              direction="row"
              spacing={1.5}
              useFlexGap
              sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}
            >
              <Typography id={`integration-${item.id}`} variant="h2">
                {item.title}
              </Typography>
              <Chip
                label={item.enabled ? t('integrations.available') : t('integrations.notYet')}
                color={item.enabled ? 'success' : 'default'}
                variant="outlined"
              />
            </Stack>
            <Typography sx={{ mb: item.to && item.enabled ? 2 : 0 }}>{item.body}</Typography>
            {item.to && item.enabled && (
              <Button component={RouterLink} to={item.to} variant="contained">
                {t('integrations.open')}
              </Button>
            )}
          </Paper>
        ))}
      </Stack>
    </Page>
  );
}
