import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { RecognitionResult } from '@parla/contract';
import { correctionChoices } from '@parla/speech';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logger } from '../../../lib/api';
import { ApiError } from '../../../lib/api-error';
import { confirmRecognition, markNoneOfMyPhrases } from '../api/recognition.api';
import { keptRecordingId, mayBeKept } from '../kept-recordings';

interface ConfirmChoicesProps {
  result: RecognitionResult;
  /** Says (or writes) a phrase the person picked instead of what was recognised. */
  onChoose: (text: string) => void;
  /** Takes back what was said (or written) for an answer the person never meant. */
  onNotMine?: () => void;
}

/**
 * After a result: "That's right", or the phrases it might have been instead, or, when it
 * said something the person never meant, that it was none of their phrases. Each answer is
 * sent to the server, which keeps the utterance as a take of the phrase meant (or of none),
 * so the voice profile learns how the person speaks day to day and what to turn down.
 */
export function ConfirmChoices({ result, onChoose, onNotMine }: ConfirmChoicesProps) {
  const { t } = useTranslation();
  const [stage, setStage] = useState<'asking' | 'choosing' | 'learnt' | 'gone' | 'closed'>(
    result.rejected ? 'choosing' : 'asking',
  );
  const choices = correctionChoices(result);
  // Only an answer the person never meant is worth teaching against; a rejection was right.
  const canMarkUnknown = result.text !== null;

  // Recognised in the browser, its recording may still be on its way to the server.
  const kept = mayBeKept(result);
  const tell = (send: (recordingId: string) => Promise<unknown>, during: string) => {
    if (!kept) {
      setStage('closed');
      return;
    }
    setStage('learnt');
    keptRecordingId(result)
      .then((id) => {
        if (id === null) setStage('gone');
        else return send(id);
      })
      .catch((error: unknown) => {
        // Its recording no longer kept (docs/realtime.md): the thanks would not be true.
        if (error instanceof ApiError && error.code === 'RECORDING_GONE') setStage('gone');
        else logger.error(error, { during });
      });
  };
  const confirm = (text: string) => tell((id) => confirmRecognition(id, text), 'confirm_recognition');

  if (stage === 'closed') return null;
  if (stage === 'learnt' || stage === 'gone') {
    return (
      <Typography role="status" color="text.secondary">
        {t(stage === 'learnt' ? 'recognition.confirm.thanks' : 'recognition.confirm.gone')}
      </Typography>
    );
  }
  if (stage === 'asking') {
    // A phrase the person has not recorded, understood by the general recogniser: saying
    // it was right is how their profile learns it (docs/decisions/0102).
    const notRecorded = result.generic ? (
      <Typography data-testid="not-recorded-yet" color="text.secondary">
        {t(kept ? 'recognition.notRecordedYet.confirm' : 'recognition.notRecordedYet.record')}
      </Typography>
    ) : null;
    if (!kept || result.text === null) return notRecorded;
    const text = result.text;
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {notRecorded}
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={() => confirm(text)}>
            {t('recognition.confirm.right')}
          </Button>
          <Button variant="outlined" onClick={() => setStage('choosing')}>
            {t('recognition.confirm.wrong')}
          </Button>
        </Box>
      </Box>
    );
  }
  if (choices.length === 0 && !canMarkUnknown) return null;
  return (
    <Box role="group" aria-labelledby="confirm-choices-label">
      <Typography id="confirm-choices-label" sx={{ mb: 1 }}>
        {t(choices.length > 0 ? 'recognition.confirm.didYouSay' : 'recognition.confirm.whatWasIt')}
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
        {canMarkUnknown && kept && (
          <Button
            variant="outlined"
            size="large"
            onClick={() => {
              onNotMine?.();
              tell(markNoneOfMyPhrases, 'mark_none_of_my_phrases');
            }}
          >
            {t('recognition.confirm.notMine')}
          </Button>
        )}
        <Button size="large" onClick={() => setStage('closed')}>
          {t('recognition.confirm.dismiss')}
        </Button>
      </Box>
    </Box>
  );
}
