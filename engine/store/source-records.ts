/**
 * The store's records of what a hub reaches: its id, sources, manifests and their tools,
 * reviews, connections and policy rules. Records are validated on the way in and parsed on the
 * way out (rows.ts).
 */
import { and, asc, eq, or, sql } from 'drizzle-orm';
import { parseToolAddress } from '../address.ts';
import { Connection } from '../contracts/connections.ts';
import { PolicyRule } from '../contracts/policy.ts';
import { Manifest, type ManifestTool, Source, ToolReview } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';
import { Records } from './records.ts';
import * as rows from './rows.ts';
import * as t from './schema.ts';

export class SourceRecords extends Records {
  readonly #source = this.prepare((db) =>
    db
      .select()
      .from(t.hubSources)
      .where(eq(t.hubSources.namespace, sql.placeholder('namespace')))
      .prepare(),
  );
  readonly #manifestHead = this.prepare((db) =>
    db
      .select()
      .from(t.hubManifests)
      .where(eq(t.hubManifests.namespace, sql.placeholder('namespace')))
      .prepare(),
  );
  readonly #manifestTools = this.prepare((db) =>
    db
      .select()
      .from(t.hubTools)
      .where(eq(t.hubTools.namespace, sql.placeholder('namespace')))
      .orderBy(asc(t.hubTools.position))
      .prepare(),
  );
  readonly #tool = this.prepare((db) =>
    db
      .select()
      .from(t.hubTools)
      .where(eq(t.hubTools.address, sql.placeholder('address')))
      .prepare(),
  );
  readonly #manifestVersions = this.prepare((db) =>
    db
      .select({ namespace: t.hubManifests.namespace, fetchedAt: t.hubManifests.fetchedAt })
      .from(t.hubManifests)
      .orderBy(asc(t.hubManifests.namespace))
      .prepare(),
  );
  readonly #connections = this.prepare((db) =>
    db
      .select()
      .from(t.hubConnections)
      .where(eq(t.hubConnections.namespace, sql.placeholder('namespace')))
      .orderBy(asc(t.hubConnections.name))
      .prepare(),
  );
  readonly #allConnections = this.prepare((db) =>
    db
      .select()
      .from(t.hubConnections)
      .orderBy(asc(t.hubConnections.namespace), asc(t.hubConnections.name))
      .prepare(),
  );
  readonly #review = this.prepare((db) =>
    db
      .select()
      .from(t.hubReviews)
      .where(eq(t.hubReviews.address, sql.placeholder('address')))
      .prepare(),
  );
  readonly #policyRules = this.prepare((db) =>
    db
      .select()
      .from(t.hubPolicyRules)
      .orderBy(asc(t.hubPolicyRules.createdAt), asc(t.hubPolicyRules.id))
      .prepare(),
  );
  readonly #policyRulesFor = this.prepare((db) =>
    db
      .select()
      .from(t.hubPolicyRules)
      .where(
        or(
          and(
            eq(t.hubPolicyRules.targetKind, 'tool'),
            eq(t.hubPolicyRules.target, sql.placeholder('address')),
          ),
          and(
            eq(t.hubPolicyRules.targetKind, 'source'),
            eq(t.hubPolicyRules.target, sql.placeholder('namespace')),
          ),
        ),
      )
      .orderBy(asc(t.hubPolicyRules.createdAt), asc(t.hubPolicyRules.id))
      .prepare(),
  );

  claimHubId(candidate: string): string {
    return this.claimSetting('hub_id', candidate);
  }

  // Read on every refresh of the scrubber (the client-prompt key, until one exists).
  readonly #setting = this.prepare((db) =>
    db
      .select({ value: t.hubMeta.value })
      .from(t.hubMeta)
      .where(eq(t.hubMeta.key, sql.placeholder('key')))
      .prepare(),
  );

  getSetting(key: string): string | undefined {
    return this.#setting().get({ key })?.value;
  }

  putSetting(key: string, value: string): void {
    this.write((db) =>
      db
        .insert(t.hubMeta)
        .values({ key, value })
        .onConflictDoUpdate({ target: t.hubMeta.key, set: { value } })
        .run(),
    );
  }

  claimSetting(key: string, candidate: string): string {
    return this.write((db) => {
      const row = db.select().from(t.hubMeta).where(eq(t.hubMeta.key, key)).get();
      if (row) return row.value;
      db.insert(t.hubMeta).values({ key, value: candidate }).run();
      return candidate;
    });
  }

  // ── sources ──
  addSource(source: Source): void {
    this.recordsChanged();
    const record = rows.checkInput(Source, source, 'source');
    this.once(
      `a source named "${record.namespace}" already exists; pick another namespace or remove it first`,
      () => this.db.insert(t.hubSources).values(rows.sourceToRow(record)).run(),
    );
  }

  updateSource(source: Source): void {
    this.recordsChanged();
    const record = rows.checkInput(Source, source, 'source');
    this.write((db) => {
      this.requireSource(record.namespace);
      db.update(t.hubSources)
        .set(rows.sourceToRow(record))
        .where(eq(t.hubSources.namespace, record.namespace))
        .run();
    });
  }

  getSource(namespace: string): Source | undefined {
    return this.cached(`source\0${namespace}`, () => {
      const row = this.#source().get({ namespace });
      return row && rows.sourceFromRow(row);
    });
  }

  listSources(): Source[] {
    return this.cached('sources', () =>
      this.db.select().from(t.hubSources).orderBy(asc(t.hubSources.namespace)).all().map(rows.sourceFromRow),
    );
  }

  removeSource(namespace: string): void {
    this.recordsChanged();
    this.write((db) => {
      this.requireSource(namespace);
      db.delete(t.hubTools).where(eq(t.hubTools.namespace, namespace)).run();
      db.delete(t.hubManifests).where(eq(t.hubManifests.namespace, namespace)).run();
      db.delete(t.hubSearchDocuments).where(eq(t.hubSearchDocuments.namespace, namespace)).run();
      db.delete(t.hubConnections).where(eq(t.hubConnections.namespace, namespace)).run();
      db.delete(t.hubPolicyRules)
        .where(and(eq(t.hubPolicyRules.targetKind, 'source'), eq(t.hubPolicyRules.target, namespace)))
        .run();
      for (const rule of db
        .select()
        .from(t.hubPolicyRules)
        .where(eq(t.hubPolicyRules.targetKind, 'tool'))
        .all()) {
        if (rule.target.startsWith(`${namespace}.`)) {
          db.delete(t.hubPolicyRules).where(eq(t.hubPolicyRules.id, rule.id)).run();
        }
      }
      db.delete(t.hubReviews).where(eq(t.hubReviews.namespace, namespace)).run();
      db.delete(t.hubSources).where(eq(t.hubSources.namespace, namespace)).run();
    });
  }

  atomically<T>(body: () => T): T {
    return this.write(body);
  }

  // ── reviews ──
  putReview(review: ToolReview): void {
    this.recordsChanged();
    const record = rows.checkInput(ToolReview, review, 'review');
    if (record.tool.address !== record.address || record.tool.contract !== record.contract) {
      throw new HubError(
        'invalid_input',
        `the review of ${record.address} must carry that tool at that contract`,
      );
    }
    this.write((db) => {
      this.requireSource(record.namespace);
      db.insert(t.hubReviews)
        .values(record)
        .onConflictDoUpdate({
          target: t.hubReviews.address,
          set: { contract: record.contract, tool: record.tool, reviewedAt: record.reviewedAt },
        })
        .run();
    });
  }

  removeReview(address: string): void {
    this.recordsChanged();
    this.db.delete(t.hubReviews).where(eq(t.hubReviews.address, address)).run();
  }

  getReview(address: string): ToolReview | undefined {
    return this.cached(`review\0${address}`, () => {
      const row = this.#review().get({ address });
      return row && rows.reviewFromRow(row);
    });
  }

  listReviews(namespace: string): ToolReview[] {
    return this.cached(`reviews\0${namespace}`, () =>
      this.db
        .select()
        .from(t.hubReviews)
        .where(eq(t.hubReviews.namespace, namespace))
        .orderBy(asc(t.hubReviews.address))
        .all()
        .map(rows.reviewFromRow),
    );
  }

  // ── manifests ──
  putManifest(manifest: Manifest): void {
    this.recordsChanged();
    const record = rows.checkInput(Manifest, manifest, 'manifest');
    const stray = record.tools.find((tool) => !tool.address.startsWith(`${record.namespace}.`));
    if (stray)
      throw new HubError('invalid_input', `tool ${stray.address} is not in namespace "${record.namespace}"`);
    this.write((db) => {
      this.requireSource(record.namespace);
      db.delete(t.hubTools).where(eq(t.hubTools.namespace, record.namespace)).run();
      db.delete(t.hubManifests).where(eq(t.hubManifests.namespace, record.namespace)).run();
      db.delete(t.hubSearchDocuments).where(eq(t.hubSearchDocuments.namespace, record.namespace)).run();
      db.insert(t.hubManifests)
        .values({
          namespace: record.namespace,
          fetchedAt: record.fetchedAt,
          server: record.server ?? null,
          instructions: record.instructions ?? null,
        })
        .run();
      record.tools.forEach((tool, position) => {
        db.insert(t.hubTools)
          .values({
            ...tool,
            namespace: record.namespace,
            position,
            title: tool.title ?? null,
            description: tool.description ?? null,
            outputSchema: tool.outputSchema ?? null,
            annotations: tool.annotations ?? null,
            operation: tool.operation ?? null,
          })
          .run();
      });
    });
  }

  getManifest(namespace: string): Manifest | undefined {
    return this.cached(`manifest\0${namespace}`, () => {
      const head = this.#manifestHead().get({ namespace });
      return head && rows.manifestFromRows(head, this.#manifestTools().all({ namespace }));
    });
  }

  getTool(address: string): ManifestTool | undefined {
    return this.cached(`tool\0${address}`, () => {
      const row = this.#tool().get({ address });
      return row && rows.toolFromRow(row);
    });
  }

  listManifests(): Manifest[] {
    return this.cached('manifests', () => {
      const heads = this.db.select().from(t.hubManifests).orderBy(asc(t.hubManifests.namespace)).all();
      const tools = this.db
        .select()
        .from(t.hubTools)
        .orderBy(asc(t.hubTools.namespace), asc(t.hubTools.position))
        .all();
      return heads.map((head) =>
        rows.manifestFromRows(
          head,
          tools.filter((tool) => tool.namespace === head.namespace),
        ),
      );
    });
  }

  listManifestVersions(): { namespace: string; fetchedAt: number }[] {
    return this.cached('versions', () => this.#manifestVersions().all());
  }

  // ── connections ──
  putConnection(connection: Connection): void {
    this.recordsChanged();
    const record = rows.checkInput(Connection, connection, 'connection');
    this.write((db) => {
      this.requireSource(record.namespace);
      if (record.isDefault) {
        db.update(t.hubConnections)
          .set({ isDefault: false })
          .where(eq(t.hubConnections.namespace, record.namespace))
          .run();
      }
      db.insert(t.hubConnections)
        .values({ ...record, secrets: rows.secretsToColumn(record.secrets) })
        .onConflictDoUpdate({
          target: [t.hubConnections.namespace, t.hubConnections.name],
          set: { isDefault: record.isDefault, secrets: rows.secretsToColumn(record.secrets) },
        })
        .run();
    });
  }

  getConnection(namespace: string, name: string): Connection | undefined {
    return this.listConnections(namespace).find((connection) => connection.name === name);
  }

  listConnections(namespace?: string): Connection[] {
    if (namespace === undefined) {
      return this.cached('connections', () => this.#allConnections().all().map(rows.connectionFromRow));
    }
    return this.cached(`connections\0${namespace}`, () =>
      this.#connections().all({ namespace }).map(rows.connectionFromRow),
    );
  }

  removeConnection(namespace: string, name: string): void {
    this.recordsChanged();
    const removed = this.db
      .delete(t.hubConnections)
      .where(and(eq(t.hubConnections.namespace, namespace), eq(t.hubConnections.name, name)))
      .returning({ name: t.hubConnections.name })
      .all();
    if (removed.length === 0) {
      throw new HubError('not_found', `no connection "${namespace}/${name}"`);
    }
  }

  // ── policy ──
  addPolicyRule(rule: PolicyRule): void {
    this.recordsChanged();
    const record = rows.checkInput(PolicyRule, rule, 'policy rule');
    this.once(`a policy rule with id ${record.id} already exists`, () =>
      this.db.insert(t.hubPolicyRules).values(rows.policyRuleToRow(record)).run(),
    );
  }

  listPolicyRules(forAddress?: string): PolicyRule[] {
    if (forAddress === undefined) {
      return this.cached('rules', () => this.#policyRules().all().map(rows.policyRuleFromRow));
    }
    const namespace = parseToolAddress(forAddress)?.namespace ?? '';
    return this.cached(`rules\0${forAddress}`, () =>
      this.#policyRulesFor().all({ address: forAddress, namespace }).map(rows.policyRuleFromRow),
    );
  }

  removePolicyRule(id: string): void {
    this.recordsChanged();
    const removed = this.db
      .delete(t.hubPolicyRules)
      .where(eq(t.hubPolicyRules.id, id))
      .returning({ id: t.hubPolicyRules.id })
      .all();
    if (removed.length === 0) throw new HubError('not_found', `no policy rule with id ${id}`);
  }
}
