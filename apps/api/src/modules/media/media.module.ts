import { defineModule } from '../../lib/module';
import { mediaPages } from './media.pages';
import { mediaRoutes } from './media.routes';
import { createMediaService, type MediaService } from './media.service';
import { createDiskStorage, type MediaObject } from './media.storage';
import { mediaUploadRoutes } from './media.upload.routes';

declare module '../../lib/module' {
  interface ModuleServices {
    media: { media: MediaService; storage: ReturnType<typeof createDiskStorage> };
  }
  interface BuildOptions {
    /** Generates media that is missing but derivable (the demo seed's images). */
    generateMedia?: (key: string) => Promise<MediaObject | null>;
  }
}

export const mediaModule = defineModule({
  name: 'media',
  needs: ['audit'],
  create({ db, config }, { audit }) {
    const storage = createDiskStorage(`${config.DATA_DIR}/media`);
    return { storage, media: createMediaService(db, { storage, audit }) };
  },
  async routes(app, { storage, media }, { options }) {
    await app.register(mediaRoutes, { storage, generate: options.generateMedia });
    await app.register(mediaUploadRoutes, { media });
  },
  pages: ({ media }) => [mediaPages({ media })],
});
