import { createContext } from 'react-router';
import type { ServerContext } from '../domain/page-context';

// The context's shape is shared with the server, which builds it (domain/page-context.ts).
export type { ServerContext, SessionUser } from '../domain/page-context';

export const serverContext = createContext<ServerContext>();
