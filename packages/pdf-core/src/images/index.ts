export * from './image-header';
