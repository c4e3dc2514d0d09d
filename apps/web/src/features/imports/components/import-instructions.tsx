import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ImportSource } from '../import-files';

/** Which texts of `imports.format` explain each source, in order. */
const STEPS = {
  manual: ['manualFiles', 'audio', 'transcriptsFile', 'limits'],
  apple: ['appleTitles', 'appleIphone', 'appleMac', 'appleUntitled', 'audio', 'appleTranscripts'],
  relate: ['relateExport', 'relateNoGuess', 'audio', 'transcriptsFile', 'limits'],
} as const satisfies Record<ImportSource, readonly string[]>;

/** The exact format a source's import takes, in plain words, with a transcripts file example. */
export function ImportInstructions({ source }: { source: ImportSource }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby="import-format-heading" sx={{ mb: 4 }}>
      <Typography id="import-format-heading" variant="h2" sx={{ mb: 1.5 }}>
        {t('imports.format.heading')}
      </Typography>
      <Box component="ul" sx={{ pl: 3, my: 0, maxWidth: '70ch', '& li': { mb: 1 } }}>
        {STEPS[source].map((step) => (
          <li key={step}>
            <Typography>{t(`imports.format.${step}`)}</Typography>
            {step === 'transcriptsFile' && (
              <Paper
                variant="outlined"
                component="pre"
                aria-label={t('imports.format.exampleLabel')}
                sx={{
                  mt: 1,
                  p: 1.5,
                  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                  fontSize: '1rem',
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                  bgcolor: 'background.default',
                }}
              >
                {t('imports.format.example')}
              </Paper>
            )}
          </li>
        ))}
      </Box>
    </Box>
  );
}
