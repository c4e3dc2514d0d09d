import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ImportSource } from '../import-files';

const SOURCES: readonly ImportSource[] = ['manual', 'apple', 'relate'];

/** The three places recordings can come from, each a large link to its import screen. */
export function ImportSourceChoices({ hrefOf }: { hrefOf: (source: ImportSource) => string }) {
  const { t } = useTranslation();
  return (
    <Box
      component="ul"
      aria-labelledby="import-sources-heading"
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' },
      }}
    >
      {SOURCES.map((source) => (
        <li key={source}>
          <Card variant="outlined" sx={{ height: '100%', borderWidth: 2 }}>
            <CardActionArea
              component={RouterLink}
              to={hrefOf(source)}
              sx={{ height: '100%', minHeight: 120, p: { xs: 2.5, sm: 3 }, alignItems: 'flex-start' }}
            >
              <Typography
                component="h3"
                variant="h2"
                sx={{ fontSize: '1.3rem', mb: 1, color: 'primary.main' }}
              >
                {t(`imports.sources.${source}.title`)}
              </Typography>
              <Typography>{t(`imports.sources.${source}.body`)}</Typography>
            </CardActionArea>
          </Card>
        </li>
      ))}
    </Box>
  );
}
