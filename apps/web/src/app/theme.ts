import { createTheme } from '@mui/material/styles';

const fontFamily = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans"',
  'sans-serif',
].join(',');

/**
 * Calm and high contrast: a deep teal on white (about 8:1), dark text, generous spacing,
 * every control at least 48 px tall, and a focus ring that is always visible.
 */
export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#0b4f6c', dark: '#073a50', light: '#2a6f8e', contrastText: '#ffffff' },
    secondary: { main: '#5b3b8c', contrastText: '#ffffff' },
    error: { main: '#b3261e' },
    warning: { main: '#8a5300' },
    success: { main: '#1e6b34' },
    info: { main: '#0b4f6c' },
    background: { default: '#f6f8f9', paper: '#ffffff' },
    text: { primary: '#15202b', secondary: '#3d4a55' },
    divider: '#c5ced6',
  },
  shape: { borderRadius: 12 },
  typography: {
    fontFamily,
    fontSize: 16,
    h1: { fontSize: '2rem', fontWeight: 700, lineHeight: 1.25 },
    h2: { fontSize: '1.5rem', fontWeight: 700, lineHeight: 1.3 },
    h3: { fontSize: '1.25rem', fontWeight: 600, lineHeight: 1.35 },
    body1: { fontSize: '1.0625rem', lineHeight: 1.6 },
    body2: { fontSize: '1rem', lineHeight: 1.55 },
    button: { textTransform: 'none', fontWeight: 600, fontSize: '1.0625rem' },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        ':focus-visible': { outline: '3px solid #e0a100', outlineOffset: '2px' },
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            transitionDuration: '0.01ms !important',
            animationDuration: '0.01ms !important',
          },
        },
      },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { minHeight: 48, paddingInline: 20 }, sizeLarge: { minHeight: 56 } },
    },
    MuiIconButton: { styleOverrides: { root: { minWidth: 48, minHeight: 48 } } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiOutlinedInput: { styleOverrides: { notchedOutline: { borderColor: '#5d6b77' } } },
    MuiFormHelperText: { styleOverrides: { root: { fontSize: '0.95rem' } } },
    MuiCheckbox: { styleOverrides: { root: { padding: 12 } } },
    // Both switch states stay visible against white (3:1 for non-text contrast).
    MuiSwitch: {
      styleOverrides: {
        root: { marginInlineEnd: 4 },
        track: { backgroundColor: '#5d6b77', opacity: 1 },
        thumb: { boxShadow: '0 0 0 1px #5d6b77' },
        switchBase: {
          '&.Mui-checked + .MuiSwitch-track': { backgroundColor: '#2a6f8e', opacity: 1 },
          '&.Mui-checked .MuiSwitch-thumb': { backgroundColor: '#0b4f6c', boxShadow: 'none' },
        },
      },
    },
    MuiListItemButton: { styleOverrides: { root: { minHeight: 56 } } },
    MuiLink: { defaultProps: { underline: 'always' } },
    MuiTab: { styleOverrides: { root: { minHeight: 56, textTransform: 'none', fontSize: '1.0625rem' } } },
  },
});
