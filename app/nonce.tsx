import { createContext, useContext } from 'react';

/**
 * The Content-Security-Policy nonce of this response, for inline scripts. Only the server knows
 * it; in the browser the scripts have already run and the value is empty.
 */
const NonceContext = createContext('');
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
