/** Registers the service worker at /pwa-sw.js (installable app, offline shell) in production builds. */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/pwa-sw.js', { scope: '/' }).catch(() => undefined);
  });
}
