import { hasScopes, missingScopes } from './scopes';

describe('missingScopes', () => {
  it('is empty when every required scope is granted', () => {
    expect(missingScopes(['documents:read', 'documents:write'], ['documents:read'])).toEqual([]);
  });

  it('lists the required scopes that were not granted, in the order required', () => {
    expect(missingScopes(['documents:read'], ['risk:read', 'documents:read', 'documents:write'])).toEqual([
      'risk:read',
      'documents:write',
    ]);
  });

  it('lists a missing scope once even when required twice', () => {
    expect(missingScopes([], ['risk:read', 'risk:read'])).toEqual(['risk:read']);
  });

  it('matches scopes exactly, without prefixes or case folding', () => {
    expect(missingScopes(['documents', 'Risk:read'], ['documents:read', 'risk:read'])).toEqual([
      'documents:read',
      'risk:read',
    ]);
  });

  it('is empty when nothing is required', () => {
    expect(missingScopes([], [])).toEqual([]);
  });
});

describe('hasScopes', () => {
  it('is true when all required scopes are granted', () => {
    expect(hasScopes(['a', 'b', 'c'], ['c', 'a'])).toBe(true);
  });

  it('is false when any required scope is missing', () => {
    expect(hasScopes(['a', 'b'], ['a', 'd'])).toBe(false);
  });
});
