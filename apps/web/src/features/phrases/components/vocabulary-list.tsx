import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Phrase } from '../api/phrases.api';
import { TakesProgress } from './takes-progress';

/** The user's own phrases, each a large link to its page, with a Record link while takes are missing. */
export function VocabularyList({
  phrases,
  hrefOf,
  recordHrefOf,
  takesPerPhrase,
}: {
  phrases: readonly Phrase[];
  hrefOf: (id: string) => string;
  recordHrefOf: (id: string) => string;
  /** Takes that make a phrase complete (the recording feature's rule). */
  takesPerPhrase: number;
}) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined">
      <List aria-label={t('vocabulary.tab.list')} disablePadding>
        {phrases.map((phrase, index) => {
          const complete = phrase.takes >= takesPerPhrase;
          return (
            <ListItem
              key={phrase.id}
              disablePadding
              divider={index < phrases.length - 1}
              secondaryAction={
                complete ? undefined : (
                  <Button
                    component={RouterLink}
                    to={recordHrefOf(phrase.id)}
                    variant="outlined"
                    aria-label={t('vocabulary.tab.recordOne', { text: phrase.text })}
                  >
                    {t('vocabulary.tab.record')}
                  </Button>
                )
              }
            >
              <ListItemButton component={RouterLink} to={hrefOf(phrase.id)} sx={{ py: 1.5 }}>
                <ListItemText
                  primary={phrase.text}
                  slotProps={{
                    primary: { sx: { fontSize: '1.15rem', fontWeight: 700, overflowWrap: 'anywhere' } },
                    secondary: { component: 'span' },
                  }}
                  sx={{ pr: complete ? 0 : 12 }}
                  secondary={
                    <TakesProgress
                      phrase={phrase}
                      takesPerPhrase={takesPerPhrase}
                      label={(count, total) => t('vocabulary.tab.takes', { count, total })}
                    />
                  }
                />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </Paper>
  );
}
