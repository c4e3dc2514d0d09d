import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';
import type { ImportReport } from '../api/imports.api';

/**
 * What an import did: the totals, the phrases imported, and each refused file with the
 * server's reason. The heading takes the focus so that the result is read out at once.
 * Recordings trimmed close to their words teach the profile little of how the person
 * sounds live, so their phrases are offered for one take recorded here (decision 0116).
 */
export function ImportReportView({ report, actions }: { report: ImportReport; actions?: ReactNode }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const imported = report.imported.length;
  const refused = report.refused.length;
  // Files among the person's takes already need no fixing: an import of only those did no harm.
  const failed = report.refused.filter((item) => item.code !== 'ALREADY_IMPORTED').length;
  const severity =
    failed === 0 ? (imported === 0 ? 'info' : 'success') : imported === 0 ? 'error' : 'warning';
  const summary =
    imported > 0
      ? t('imports.result.whereToFind')
      : failed === 0
        ? t('imports.result.nothingNew', { count: refused })
        : t('imports.result.noneImported');
  const cutClose = report.imported.filter((item) => item.cut_close);
  // One take a phrase is enough: the first file of each phrase stands for it.
  const firstOfPhrase = new Map<string, (typeof cutClose)[number]>();
  for (const item of cutClose)
    if (!firstOfPhrase.has(item.phrase_id)) firstOfPhrase.set(item.phrase_id, item);
  const toRecord = [...firstOfPhrase.values()];

  return (
    <Box component="section" aria-labelledby="import-result-heading">
      <Typography id="import-result-heading" ref={heading} tabIndex={-1} variant="h2" sx={{ mb: 2 }}>
        {t('imports.result.heading')}
      </Typography>
      <Alert severity={severity} sx={{ mb: 3 }}>
        <strong>
          {t('imports.result.importedCount', { count: imported })}
          {' · '}
          {t('imports.result.refusedCount', { count: refused })}
        </strong>
        <div>{summary}</div>
      </Alert>
      {toRecord.length > 0 && (
        <Alert severity="info" sx={{ mb: 3 }} aria-labelledby="import-cut-close-heading">
          <AlertTitle id="import-cut-close-heading" component="h3" sx={{ fontWeight: 700 }}>
            {t('imports.result.cutCloseHeading')}
          </AlertTitle>
          <Typography sx={{ mb: 1.5 }}>
            {t('imports.result.cutCloseText', { count: cutClose.length })}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {toRecord.map((item) => (
              <Button
                key={item.phrase_id}
                component={RouterLink}
                to={paths.recordTraining.getHref(item.phrase_id)}
                variant="outlined"
              >
                {t('imports.result.recordPhrase', { text: item.text })}
              </Button>
            ))}
          </Box>
        </Alert>
      )}
      <Stack spacing={3} sx={{ mb: 3 }}>
        {imported > 0 && (
          <Box>
            <Typography id="import-imported-heading" variant="h3" sx={{ mb: 1 }}>
              {t('imports.result.importedList', { count: imported })}
            </Typography>
            <Paper variant="outlined">
              <List aria-labelledby="import-imported-heading" disablePadding>
                {report.imported.map((item, index) => (
                  <ListItem key={`${item.file}-${index}`} divider={index < imported - 1}>
                    <ListItemText
                      primary={item.text}
                      secondary={t('imports.result.fromFile', { file: item.file })}
                      slotProps={{ primary: { sx: { fontSize: '1.1rem', fontWeight: 600 } } }}
                    />
                  </ListItem>
                ))}
              </List>
            </Paper>
          </Box>
        )}
        {refused > 0 && (
          <Box>
            <Typography id="import-refused-heading" variant="h3" sx={{ mb: 1 }}>
              {t('imports.result.refusedList', { count: refused })}
            </Typography>
            <Paper variant="outlined">
              <List aria-labelledby="import-refused-heading" disablePadding>
                {report.refused.map((item, index) => (
                  <ListItem key={`${item.file}-${index}`} divider={index < refused - 1}>
                    <ListItemText
                      primary={item.file}
                      secondary={item.reason}
                      slotProps={{
                        primary: { sx: { fontWeight: 600, overflowWrap: 'anywhere' } },
                        secondary: { sx: { color: 'text.primary' } },
                      }}
                    />
                  </ListItem>
                ))}
              </List>
            </Paper>
          </Box>
        )}
      </Stack>
      {actions && <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>{actions}</Box>}
    </Box>
  );
}
