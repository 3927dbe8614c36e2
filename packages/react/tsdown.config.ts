import { defineConfig } from 'tsdown';
import { libraryConfig } from '../../tools/library-build.ts';

export default defineConfig(libraryConfig(import.meta.dirname));
