import 'react';

// The Invoker Commands attributes (HTML: `command`, `commandfor`) that let a button open or close
// a dialog without any script. React passes them through as plain attributes.
declare module 'react' {
  // The type parameter must match React's own declaration to merge with it.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    command?:
      'show-modal' | 'close' | 'request-close' | 'toggle-popover' | 'show-popover' | 'hide-popover' | `--${string}`;
    commandfor?: string;
  }
}
