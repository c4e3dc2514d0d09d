import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { browserState } from './browser-state';
import { isRememberedTab } from './redirects';

/** Called by the main tabs once they render: the launcher returns the user here next time. */
export function useRememberTab() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (isRememberedTab(pathname)) browserState.set('lastOpenedTab', pathname);
  }, [pathname]);
}
