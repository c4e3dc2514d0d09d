import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { RecognitionResult, User } from '@parla/contract';
import { correctionChoices } from '@parla/speech';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logger } from '../../../lib/api';
import { userQueryKey } from '../../../lib/session';
import { keptRecordings } from '../api/recognition.api';
import type { ResultAnswer } from '../result-outbox';

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
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<'asking' | 'choosing' | 'learnt' | 'waiting' | 'gone' | 'closed'>(
    result.rejected ? 'choosing' : 'asking',
  );
  const choices = correctionChoices(result);
  // Only an answer the person never meant is worth teaching against; a rejection was right.
  const canMarkUnknown = result.text !== null;

  // Recognised in the browser, its recording may still be on its way to the server.
  const kept = keptRecordings.mayBeKept(result);
  const tell = (answer: ResultAnswer) => {
    const userId = queryClient.getQueryData<User>(userQueryKey)?.id;
    if (!kept || userId === undefined) {
      setStage('closed');
      return;
    }
    setStage('learnt');
    keptRecordings
      .answer(result, userId, answer)
      .then((outcome) => {
        // Gone: the recording is no longer kept (docs/realtime.md), the thanks would not be true.
        if (outcome !== 'sent') setStage(outcome);
      })
      .catch((error: unknown) => {
        logger.error(error, { during: 'answer_recognition' });
      });
  };
  const confirm = (text: string) => tell({ confirm: text });

  if (stage === 'closed') return null;
  if (stage === 'learnt' || stage === 'waiting' || stage === 'gone') {
    return (
      <Typography role="status" color="text.secondary">
        {t(`recognition.confirm.${stage === 'learnt' ? 'thanks' : stage}`)}
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
              tell({ noneOfMyPhrases: true });
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
