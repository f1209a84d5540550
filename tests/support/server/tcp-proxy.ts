import net from 'node:net';

// A loopback TCP proxy in front of a real server (PostgreSQL in the history's outage tests): `cut()` drops every
// connection and refuses new ones, as a database going away does; `restore()` lets connections through again.
// `pause()` keeps every connection open but forwards nothing either way (a network partition: requests hang, nothing
// fails), until `resume()` delivers what was held.

export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private paused = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      const pair: [net.Socket, net.Socket] = [client, upstream];
      this.pairs.add(pair);
      client.on('close', () => this.pairs.delete(pair));
      if (this.paused) {
        client.pause();
        upstream.pause();
      } else client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Drops every connection and stops listening (new connections are refused). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Holds every byte in both directions, connections open. */
  pause(): void {
    this.paused = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  /** Forwards again, starting with what was held. */
  resume(): void {
    this.paused = false;
    for (const [client, upstream] of this.pairs) client.pipe(upstream).pipe(client);
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
