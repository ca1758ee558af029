import { Link } from 'react-router';

/** The signed-in user's picture (else their initial) in a circle, then their name or email. */
export function UserBadge({
  name,
  picture,
  to,
  className = '',
}: {
  name: string;
  picture?: string | null;
  to?: string;
  className?: string;
}) {
  const content = (
    <>
      {picture ? (
        <img
          src={picture}
          alt=""
          width={32}
          height={32}
          className="h-8 w-8 shrink-0 rounded-full object-cover"
          data-testid="user-picture"
        />
      ) : (
        <span
          aria-hidden="true"
          className="grid h-8 w-8 shrink-0 place-items-center rounded-full bg-accent-400 font-semibold text-brand-950"
        >
          {name.charAt(0).toUpperCase()}
        </span>
      )}
      <span className="max-w-40 truncate">{name}</span>
    </>
  );
  return to ? (
    <Link to={to} className={`flex items-center gap-2 font-medium ${className}`} data-testid="user-badge">
      {content}
    </Link>
  ) : (
    <span className={`flex items-center gap-2 font-medium ${className}`} data-testid="user-badge">
      {content}
    </span>
  );
}
