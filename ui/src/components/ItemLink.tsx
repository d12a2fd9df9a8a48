/** A record id: an event's opens it on the timeline, any other is shown as code. */
export function ItemLink({ id }: { id: string }) {
  return id.startsWith('evt_') ? <a href={`#/timeline?event=${id}`}>{id}</a> : <code>{id}</code>;
}

/** The retrieval config a record ran with, folded. */
export function ConfigDetails({ config }: { config: unknown }) {
  if (config === undefined) return null;
  return (
    <details>
      <summary>Config it ran with</summary>
      <pre className="json">{JSON.stringify(config, null, 2)}</pre>
    </details>
  );
}
