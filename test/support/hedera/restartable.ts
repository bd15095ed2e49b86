/** A local server that can go away and come back on the same port: an outage, not a reset (state is kept). */
export abstract class Restartable<Server> {
  private server: Server | null = null;

  protected constructor(protected port: number) {}

  get running(): boolean {
    return this.server !== null;
  }

  /** Listens (again) on the same port. */
  async start(): Promise<void> {
    if (this.server) return;
    const { server, port } = await this.listen(this.port);
    this.port = port;
    this.server = server;
  }

  /** Stops listening and drops open connections until start(). */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await this.close(server);
  }

  protected abstract listen(port: number): Promise<{ server: Server; port: number }>;
  protected abstract close(server: Server): Promise<void>;
}
