import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation } from 'react-router';

export interface SectionLink {
  to: string;
  label: string;
}

/**
 * Links between the sections of one area (settings, recording): large buttons that wrap
 * on a phone instead of scrolling sideways, the current one marked for everyone.
 */
export function SectionNav({ label, links }: { label: string; links: readonly SectionLink[] }) {
  const { pathname } = useLocation();
  return (
    <Box component="nav" aria-label={label} sx={{ mb: 3 }}>
      <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }}>
        {links.map((link) => {
          const current = link.to === pathname;
          return (
            <li key={link.to}>
              <Button
                component={RouterLink}
                to={link.to}
                variant={current ? 'contained' : 'outlined'}
                aria-current={current ? 'page' : undefined}
              >
                {link.label}
              </Button>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
