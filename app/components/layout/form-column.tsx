import type { ReactNode } from 'react';
import { LanguageSelector } from './language-selector';
import { Logo } from './logo';
import { ThemeToggle } from './theme';

/**
 * The login layout's form side: the logo, the theme and the languages around one narrow column.
 * Beside the members' brand panel (routes/portal/login-layout.tsx) the logo shows on the panel on
 * wide screens; the apps' users' pages (routes/app-users) stand on this column alone (`alone`).
 */
export function FormColumn({ children, alone = false }: { children: ReactNode; alone?: boolean }) {
  return (
    <div className={alone ? 'flex min-h-screen flex-col' : 'flex flex-col'}>
      <header className="flex h-[86px] items-center justify-between px-4 sm:px-8">
        <Logo className={alone ? undefined : 'lg:invisible'} />
        <ThemeToggle />
      </header>
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-10 sm:px-8">
        <div className="w-full max-w-md">{children}</div>
      </main>
      <footer className="flex justify-center px-4 py-6">
        <LanguageSelector />
      </footer>
    </div>
  );
}
