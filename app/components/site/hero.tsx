import { preload } from 'react-dom';
import { Link } from 'react-router';
import { TryNow } from '../layout/try-now';

export const HERO_IMAGE = { src: '/images/hero-pos.svg', width: 560, height: 440 };

/** The opening block of a marketing page: kicker, heading, lead, two actions and a picture. */
export function Hero({
  kicker,
  heading,
  lead,
  secondary,
  image,
  children,
}: {
  kicker: string;
  heading: string;
  lead: string;
  secondary?: { to: string; label: string };
  image?: { src: string; width: number; height: number; alt: string };
  children?: React.ReactNode;
}) {
  // The hero picture is the largest paint: the browser fetches it before it reaches the <img>.
  if (image) preload(image.src, { as: 'image', fetchPriority: 'high' });
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-tint to-page" aria-labelledby="hero-heading">
      <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-14 sm:px-6 sm:py-20 lg:grid-cols-2 wide:max-w-[1600px]">
        <div>
          <p className="font-semibold text-brand-700 dark:text-brand-300">{kicker}</p>
          <h1 id="hero-heading" className="mt-3 text-4xl leading-tight font-bold tracking-tight sm:text-5xl">
            {heading}
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-8 text-muted">{lead}</p>
          <div className="mt-8 flex flex-wrap items-center gap-3">
            <TryNow className="px-6 py-3 text-lg" testId="hero-try-now" />
            {secondary ? (
              <Link
                to={secondary.to}
                className="inline-flex items-center rounded-full border border-line bg-raised px-6 py-3 text-lg font-semibold hover:bg-sunken"
              >
                {secondary.label}
              </Link>
            ) : null}
          </div>
          {children}
        </div>
        {image ? (
          <img
            src={image.src}
            width={image.width}
            height={image.height}
            alt={image.alt}
            fetchPriority="high"
            decoding="async"
            className="mx-auto h-auto w-full max-w-xl"
          />
        ) : null}
      </div>
    </section>
  );
}
