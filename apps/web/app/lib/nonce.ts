import { createContext, useContext } from 'react';

/** The CSP nonce of this response; empty in the browser, where scripts are already trusted. */
export const NonceContext = createContext('');
export const useNonce = () => useContext(NonceContext);
