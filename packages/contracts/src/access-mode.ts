import { z } from 'zod';
import { ACCESS_MODES } from './access-mode-display';

export * from './access-mode-display';

// Who may see a store (decision 105). Apart from the rest of store-access.ts so the shell's types can name it.

export const accessModeSchema = z.enum(ACCESS_MODES, { message: 'Choose one of the access modes.' });
