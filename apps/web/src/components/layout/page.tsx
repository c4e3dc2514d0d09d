import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode } from 'react';
import { appConfig } from '../../config/app-config';
import { AppHeader } from './app-header';

function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · ${appConfig.productName}`;
  }, [title]);
}

interface PageProps {
  title: string;
  /** Shown under the heading. */
  intro?: ReactNode;
  /** Buttons beside the heading on wide screens, below it on narrow ones. */
  actions?: ReactNode;
  children?: ReactNode;
  width?: 'sm' | 'md' | 'lg';
}

/** A page of the signed-in app: header, one h1, the content in a readable column. */
export function Page({ title, intro, actions, children, width = 'md' }: PageProps) {
  useDocumentTitle(title);
  return (
    <>
      <AppHeader />
      <Container component="main" id="main" maxWidth={width} sx={{ py: { xs: 3, sm: 5 } }} tabIndex={-1}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 2,
            alignItems: 'center',
            justifyContent: 'space-between',
            mb: 3,
          }}
        >
          <Typography variant="h1">{title}</Typography>
          {actions && <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{actions}</Box>}
        </Box>
        {intro && (
          <Typography variant="body1" color="text.secondary" sx={{ mb: 3, maxWidth: '65ch' }}>
            {intro}
          </Typography>
        )}
        {children}
      </Container>
    </>
  );
}

/** A page with one focused task (login, sign-up, errors): a card in the middle. */
export function CardPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <>
      <AppHeader />
      <Container
        component="main"
        id="main"
        maxWidth="sm"
        sx={{ py: { xs: 2, sm: 6 }, px: { xs: 1.5, sm: 3 } }}
        tabIndex={-1}
      >
        <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 5 } }}>
          <Typography variant="h1" sx={{ mb: intro ? 1.5 : 3 }}>
            {title}
          </Typography>
          {intro && (
            <Typography variant="body1" color="text.secondary" sx={{ mb: 3 }}>
              {intro}
            </Typography>
          )}
          {children}
        </Paper>
      </Container>
    </>
  );
}
