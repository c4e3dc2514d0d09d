import { createStore } from './store';

/**
 * Whether a take is being recorded or reviewed now. Notices that would take the person
 * away (the profile-updated dialog) wait until the take is done.
 */
export const recordingSessionStore = createStore<{ active: boolean }>({ active: false });
