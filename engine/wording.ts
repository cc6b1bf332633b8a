/**
 * How a person acts on the hub, in the host's own words. The engine's messages say what is
 * wrong and what must happen; the host says how a person does it: the local hub names its CLI
 * commands, the hosted hub its dashboard. So no message the engine writes names a command that
 * a person on claude.ai, with no terminal, cannot run (the architecture test holds it).
 *
 * Each entry is written for one place in a sentence, said beside it.
 */
export interface HostWording {
  /** After "no source …; ": how a person sees the hub's sources. */
  listSources: string;
  /** After "… has no tool list yet; ": how a person reads a source's tools again. */
  refreshSource(namespace: string): string;
  /** After "Ask the user to ": how a person adds a first source. */
  addSource: string;
  /**
   * A whole sentence after "A server that runs as a command (stdio) cannot be added here.": why
   * not on this host, and how a person adds one (the dashboard adds only remote servers).
   */
  addStdioSource: string;
  /** A sentence's start, before " to review the command.": how a stdio source is added anew. */
  addSourceAgain: string;
  /** A whole sentence: how a person enters a connection's missing secret again. */
  enterSecretAgain(namespace: string, connection: string): string;
  /**
   * After "A person must sign in again: " and "… to connection X/Y: ", and in parentheses after
   * "the connection X/Y must be signed in again": how a person signs an OAuth connection in again.
   */
  signInAgain(namespace: string, connection: string): string;
  /**
   * A whole sentence after "The dashboard cannot run this sign-in (it opens the API's sign-in page
   * in a browser and waits for its answer).": how a person signs an OpenAPI source added from the
   * dashboard in to its API's OAuth once it is added, as `connection` (not the connection that
   * holds its key: one connection holds a sign-in or keys, never both).
   */
  signInToApi(namespace: string, connection: string): string;
  /** After "… no run X; ": how a person sees the hub's runs. */
  listRuns: string;
  /** After "Tell the user to " and "A person must decide: ": how a person decides a run's calls. */
  decideRun(runId: string): string;
  /** After "Resume the run to be asked again, or ": how a person decides without the prompt. */
  decideElsewhere: string;
  /**
   * In parentheses after "X needs a connection added", and after "A person must add a connection
   * for X: ". A connection other than `default` is named, so the person adds the one the call used.
   */
  addConnection(namespace: string, connection?: string | null): string;
  /** After "For the whole dashboard, ": how a person opens the dashboard anew (a page session). */
  openDashboard: string;
  /** After "say where the API is ", "give the server ": where a person names an OpenAPI source's base URL (`<url>` as a stand-in). */
  apiServer: string;
  /** After "pick another ": where a person chooses the namespace of a source being added. */
  otherNamespace: string;
  /** A whole sentence after "no profile X; profiles: a, b.": how a person sees the hub's profiles. */
  listProfiles: string;
  /** A whole sentence after "no skill X; skills: a, b.": how a person sees the hub's skills. */
  listSkills: string;
}
