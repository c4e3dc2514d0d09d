import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { RecognitionResult } from '@parla/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logger } from '../../../lib/api';
import { confirmRecognition } from '../api/recognition.api';

const MAX_CHOICES = 3;

interface ConfirmChoicesProps {
  result: RecognitionResult;
  /** Says a phrase the person picked instead of what was recognised. */
  onChoose: (text: string) => void;
}

/**
 * After a result: "That's right", or the phrases it might have been instead. Either answer
 * is sent to the server, which turns the utterance into a take of the phrase meant, so the
 * voice profile learns how the person speaks day to day.
 */
export function ConfirmChoices({ result, onChoose }: ConfirmChoicesProps) {
  const { t } = useTranslation();
  const [stage, setStage] = useState<'asking' | 'choosing' | 'done'>(result.rejected ? 'choosing' : 'asking');
  const choices = result.alternatives
    .map((alternative) => alternative.text)
    .filter((text, index, all) => text !== result.text && all.indexOf(text) === index)
    .slice(0, MAX_CHOICES);

  const confirm = (text: string) => {
    setStage('done');
    if (!result.recording_id) return;
    confirmRecognition(result.recording_id, text).catch((error: unknown) => {
      logger.error(error, { during: 'confirm_recognition' });
    });
  };

  if (stage === 'done') {
    return result.recording_id ? (
      <Typography role="status" color="text.secondary">
        {t('recognition.confirm.thanks')}
      </Typography>
    ) : null;
  }
  if (stage === 'asking') {
    if (!result.recording_id || result.text === null) return null;
    const text = result.text;
    return (
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => confirm(text)}>
          {t('recognition.confirm.right')}
        </Button>
        {choices.length > 0 && (
          <Button variant="outlined" onClick={() => setStage('choosing')}>
            {t('recognition.confirm.wrong')}
          </Button>
        )}
      </Box>
    );
  }
  if (choices.length === 0) return null;
  return (
    <Box role="group" aria-labelledby="confirm-choices-label">
      <Typography id="confirm-choices-label" sx={{ mb: 1 }}>
        {t('recognition.confirm.didYouSay')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        {choices.map((text, index) => (
          <Button
            key={text}
            variant={index === 0 ? 'contained' : 'outlined'}
            size="large"
            onClick={() => {
              onChoose(text);
              confirm(text);
            }}
          >
            {t('recognition.confirm.choice', { text })}
          </Button>
        ))}
        <Button size="large" onClick={() => setStage('done')}>
          {t('recognition.confirm.none')}
        </Button>
      </Box>
    </Box>
  );
}
