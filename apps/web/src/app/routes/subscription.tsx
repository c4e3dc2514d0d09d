import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../components/feedback/loading-screen';
import { Page } from '../../components/layout/page';
import { appConfig } from '../../config/app-config';
import { useSubscriptionInfo } from '../../features/subscription/api/subscription.api';
import { normalizeError } from '../../lib/api-error';

/** The subscription and the tech partners that sell it. */
export function SubscriptionRoute() {
  const { t } = useTranslation();
  const info = useSubscriptionInfo();
  return (
    <Page title={t('subscription.title')}>
      {info.isPending && <LoadingScreen />}
      {info.isError && (
        <Alert severity="error">
          {t('errors.withMessage', { message: normalizeError(info.error).message })}
        </Alert>
      )}
      {info.data && (
        <Stack spacing={3}>
          <Paper
            variant="outlined"
            sx={{ p: { xs: 2.5, sm: 3 } }}
            component="section"
            aria-labelledby="plan-title"
          >
            <Stack
              direction="row"
              spacing={1.5}
              useFlexGap
              sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}
            >
              <Typography id="plan-title" variant="h2">
                {t('subscription.plan', { plan: info.data.details.plan })}
              </Typography>
              <Chip
                label={info.data.is_locked ? t('subscription.locked') : t('subscription.active')}
                color={info.data.is_locked ? 'error' : 'success'}
                variant="outlined"
              />
            </Stack>
            <Typography>{t('subscription.seller', { seller: info.data.details.seller })}</Typography>
            {info.data.is_locked && (
              <Alert severity="warning" sx={{ mt: 2 }}>
                {t('subscription.lockedBody', { email: appConfig.supportEmail })}
              </Alert>
            )}
          </Paper>
          <Box component="section" aria-labelledby="partners-title">
            <Typography id="partners-title" variant="h2" sx={{ mb: 2 }}>
              {t('subscription.partners')}
            </Typography>
            <Stack spacing={2}>
              {info.data.tech_partners.map((partner) => (
                <Paper key={partner.id} variant="outlined" sx={{ p: { xs: 2.5, sm: 3 } }}>
                  <Typography variant="h3" component="h3">
                    {partner.name}
                    {partner.id === info.data.preferred_tech_partner && ` (${t('subscription.yours')})`}
                  </Typography>
                  {partner.description && <Typography sx={{ mt: 1 }}>{partner.description}</Typography>}
                  {partner.url && (
                    <Link
                      href={partner.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      sx={{ display: 'inline-block', mt: 1, py: 1 }}
                    >
                      {t('subscription.visit', { name: partner.name })}
                    </Link>
                  )}
                </Paper>
              ))}
            </Stack>
          </Box>
        </Stack>
      )}
    </Page>
  );
}
