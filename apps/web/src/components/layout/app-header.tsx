import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { appConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import { sessionStore } from '../../lib/session';
import { useStore } from '../../lib/store';

/** The bar on every page: the product name (home) and, when signed in, the menu. */
export function AppHeader() {
  const { t } = useTranslation();
  const { status } = useStore(sessionStore);
  const signedIn = status === 'signed_in';
  return (
    <AppBar position="static" color="primary" component="header" elevation={0}>
      <Toolbar sx={{ gap: 1, minHeight: { xs: 64 } }}>
        <Button
          component={RouterLink}
          to={signedIn ? paths.launcher.getHref() : paths.login.getHref()}
          color="inherit"
          sx={{ fontSize: '1.375rem', fontWeight: 700, px: 1 }}
          aria-label={t('nav.home', { product: appConfig.productName })}
        >
          {appConfig.productName}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        {signedIn && (
          <Button component={RouterLink} to={paths.menu.getHref()} color="inherit" variant="outlined">
            {t('nav.menu')}
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}
