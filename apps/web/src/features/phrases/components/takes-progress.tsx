import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { Phrase } from '@parla/contract';
import { useTranslation } from 'react-i18next';

/**
 * How many lost takes (their audio could no longer be read) a phrase asks for again: none once
 * it is complete, since recording again made the loss good.
 */
export function lostTakesAskedFor(phrase: Pick<Phrase, 'takes' | 'lost_takes'>, takesPerPhrase: number) {
  return phrase.takes < takesPerPhrase ? phrase.lost_takes : 0;
}

/**
 * A phrase's takes against what completes it, as a chip; and, while it asks for takes that
 * were lost (their audio could no longer be read), why it asks again. Rendered as spans, so
 * it fits a list item's secondary text.
 */
export function TakesProgress({
  phrase,
  takesPerPhrase,
  label,
}: {
  phrase: Pick<Phrase, 'takes' | 'lost_takes'>;
  takesPerPhrase: number;
  /** The chip's words, e.g. "2 of 3 takes". */
  label: (count: number, total: number) => string;
}) {
  const { t } = useTranslation();
  const complete = phrase.takes >= takesPerPhrase;
  const lost = lostTakesAskedFor(phrase, takesPerPhrase);
  return (
    <>
      <Chip
        component="span"
        size="small"
        color={complete ? 'success' : 'default'}
        label={label(Math.min(phrase.takes, takesPerPhrase), takesPerPhrase)}
        sx={{ mt: 0.5 }}
      />
      {lost > 0 && (
        <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
          {t('recording.lostTakes', { count: lost })}
        </Box>
      )}
    </>
  );
}
