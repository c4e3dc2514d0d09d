import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function connect(auth: Record<string, string | undefined>): Socket {
  return io(server.url, {
    path: '/socket.io',
    auth,
    reconnection: false,
    transports: ['polling', 'websocket'],
  });
}

describe('realtime connection', () => {
  it('says connection_ready to a signed-in user, on polling upgraded to websocket', async () => {
    const user = await signUp(server.api);
    const socket = connect({
      token: user.access_token,
      refresh_token: user.refresh_token,
      user_id: user.user.id,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connection_ready', () => resolve());
        socket.on('connect_error', reject);
      });
      await new Promise<void>((resolve) => {
        if (socket.io.engine.transport.name === 'websocket') resolve();
        else socket.io.engine.once('upgrade', () => resolve());
      });
      expect(socket.io.engine.transport.name).toBe('websocket');
    } finally {
      socket.disconnect();
    }
  });

  it("refuses a bad token and another user's id with 'authentication failed'", async () => {
    const user = await signUp(server.api);
    const other = await signUp(server.api);
    for (const auth of [
      { token: 'garbage', user_id: user.user.id },
      { token: user.access_token, user_id: other.user.id },
      { user_id: user.user.id },
    ]) {
      const socket = connect(auth);
      const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
      expect(error.message).toBe('authentication failed');
      socket.disconnect();
    }
  });
});
