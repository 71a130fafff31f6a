import type { DesiredHostPlacement, DesiredPlacementSource } from '../domain/desired-placement';

/** Desired states given directly, standing in for the placement projection. */
export class InMemoryDesiredPlacementSource implements DesiredPlacementSource {
  private readonly hosts = new Map<string, DesiredHostPlacement>();

  set(desired: DesiredHostPlacement): void {
    this.hosts.set(desired.hostname, desired);
  }

  async hostnames(): Promise<readonly string[]> {
    return [...this.hosts.keys()].sort();
  }

  async host(hostname: string): Promise<DesiredHostPlacement | undefined> {
    return this.hosts.get(hostname);
  }
}
