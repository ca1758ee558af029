/** A page section with its heading (h2) and an optional lead paragraph. */
export function Section({
  id,
  heading,
  lead,
  children,
  className = '',
  tone = 'page',
}: {
  id: string;
  heading: string;
  lead?: string;
  children: React.ReactNode;
  className?: string;
  tone?: 'page' | 'sunken';
}) {
  return (
    <section aria-labelledby={id} className={`${tone === 'sunken' ? 'bg-sunken' : ''} py-16 sm:py-20 ${className}`}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 wide:max-w-[1600px]">
        <div className="max-w-3xl">
          <h2 id={id} className="text-3xl font-bold tracking-tight sm:text-4xl">
            {heading}
          </h2>
          {lead ? <p className="mt-4 text-lg text-muted">{lead}</p> : null}
        </div>
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}
