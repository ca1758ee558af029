import 'react';

// The Invoker Commands attributes (HTML: `command`, `commandfor`) that let a button open or close
// a dialog without any script. React passes them through as plain attributes.
declare module 'react' {
  interface ButtonHTMLAttributes<T> {
    command?: 'show-modal' | 'close' | 'request-close' | 'toggle-popover' | 'show-popover' | 'hide-popover' | `--${string}`;
    commandfor?: string;
  }
}
