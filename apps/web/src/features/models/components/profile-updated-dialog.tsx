import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { TASK_RECOGNITION_UNLOCKED } from '@parla/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { appConfig } from '../../../config/app-config';
import { paths } from '../../../config/paths';
import { api, logger } from '../../../lib/api';
import { browserState } from '../../../lib/browser-state';
import { recordingSessionStore } from '../../../lib/recording-session';
import { modePath } from '../../../lib/redirects';
import { userQueryKey } from '../../../lib/session';
import { useStore } from '../../../lib/store';
import { userQueryOptions } from '../../auth/api/auth.api';
import { modelsQueryOptions } from '../api/models.api';
import { acousticModelVersion, profileUpdatedState } from '../profile-updated';

function storeVersion(version: string) {
  browserState.set('notificationStatus', {
    ...browserState.get('notificationStatus'),
    acoustic_model_version: version,
  });
}

/** Tells the user their voice profile changed, then takes them to their mode's page. */
export function ProfileUpdatedDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useQuery(userQueryOptions());
  const models = useQuery(modelsQueryOptions());
  const [dismissed, setDismissed] = useState(false);
  const recording = useStore(recordingSessionStore);
  const state =
    user.data && models.data
      ? profileUpdatedState({
          tasks: user.data.tasks,
          version: acousticModelVersion(models.data),
          storedVersion: browserState.get('notificationStatus')?.acoustic_model_version,
        })
      : null;

  const firstVersion = state && !state.open ? state.storeVersion : null;
  useEffect(() => {
    if (firstVersion) storeVersion(firstVersion);
  }, [firstVersion]);

  // Not in the middle of a take: the person finishes it first.
  if (!state?.open || dismissed || recording.active) return null;

  const handleUse = async () => {
    if (state.reason === 'task') {
      await api.post('/app/complete_task', { task: TASK_RECOGNITION_UNLOCKED }).catch((error: unknown) => {
        logger.error(error, { during: 'complete_task' });
      });
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    }
    if (state.version) storeVersion(state.version);
    setDismissed(true);
    const mode = browserState.get('recognitionMode');
    await navigate(mode ? modePath(mode) : paths.modePicker.getHref());
  };

  return (
    <Dialog open aria-labelledby="profile-updated-title" maxWidth="sm" fullWidth>
      <DialogTitle id="profile-updated-title" component="h2" variant="h2">
        {t('profileUpdated.title')}
      </DialogTitle>
      <DialogContent>
        <Typography>{t('profileUpdated.body', { product: appConfig.productName })}</Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 3 }}>
        <Button variant="contained" size="large" onClick={() => void handleUse()}>
          {t('profileUpdated.use', { product: appConfig.productName })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
