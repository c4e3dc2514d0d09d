import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '../../../components/layout/visually-hidden';
import type { ShortcutPhrase } from '../api/shortcuts.api';

/** The user's shortcuts as "input → output", each a large link to its page. */
export function ShortcutList({
  shortcuts,
  hrefOf,
}: {
  shortcuts: readonly ShortcutPhrase[];
  hrefOf: (id: string) => string;
}) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined">
      <List aria-label={t('shortcuts.tab.list')} disablePadding>
        {shortcuts.map((shortcut, index) => (
          <ListItem key={shortcut.id} disablePadding divider={index < shortcuts.length - 1}>
            <ListItemButton
              component={RouterLink}
              to={hrefOf(shortcut.id)}
              sx={{ py: 1.5, display: 'block', overflowWrap: 'anywhere' }}
            >
              <Box component="span" sx={{ fontWeight: 700, fontSize: '1.15rem' }}>
                {shortcut.input}
              </Box>
              <Box component="span" aria-hidden="true" sx={{ mx: 1, color: 'primary.main', fontWeight: 700 }}>
                →
              </Box>
              <Box component="span" sx={visuallyHidden}>
                {` ${t('shortcuts.tab.becomes')} `}
              </Box>
              <Box component="span">{shortcut.output}</Box>
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
