import { z } from 'zod';

// Who may see a store (decision 105). Apart from the rest of store-access.ts so the shell's types can name it.

export const ACCESS_MODES = ['public', 'login_required', 'approved_only', 'invitation_only'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];
export const accessModeSchema = z.enum(ACCESS_MODES, { message: 'Choose one of the access modes.' });
