import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** An honest empty state: what this place is for, why it is empty, what to do now. */
export function EmptyState({
  title,
  body,
  actions,
}: {
  title: string;
  body: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, textAlign: 'left' }}>
      <Typography variant="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      <Typography component="div" variant="body1" color="text.secondary" sx={{ maxWidth: '65ch' }}>
        {body}
      </Typography>
      {actions && <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mt: 3 }}>{actions}</Box>}
    </Paper>
  );
}
