// Property tests draw their cases from the same generator the synthetic data uses.
export { seededRandom, uniform } from '../../synthetic/seeded-random';
