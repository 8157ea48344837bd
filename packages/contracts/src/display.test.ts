import { describe, expect, it } from 'vitest';
import { categoryImage } from './display';

// LinkTwoImageUrl when it starts with http, else linkTwoImageUrlS3, else nothing
// (the bar then shows the no-product-image placeholder). The demo seed gives every category a
// picture, so this rule's last branch is pinned here rather than by the seed.
describe('categoryImage', () => {
  it('takes an http image first, then the S3 key, else none', () => {
    expect(categoryImage({ linkTwoImageUrl: 'https://cdn.example/a.webp', linkTwoImageUrlS3: 'cat/b.webp' })).toBe(
      'https://cdn.example/a.webp',
    );
    expect(categoryImage({ linkTwoImageUrl: 'cat/not-http.webp', linkTwoImageUrlS3: 'cat/b.webp' })).toBe('cat/b.webp');
    expect(categoryImage({ linkTwoImageUrl: null, linkTwoImageUrlS3: 'cat/b.webp' })).toBe('cat/b.webp');
    expect(categoryImage({ linkTwoImageUrl: null, linkTwoImageUrlS3: null })).toBeNull();
    expect(categoryImage({ linkTwoImageUrl: '', linkTwoImageUrlS3: '' })).toBeNull();
  });
});
