// main.tsx imports this module first. zod decides whether to compile an object schema when the schema
// is made, and the shared schemas are made as their modules load: calling this from main.tsx's body
// came too late once a schema module was among its imports, and every page reported the eval probe.
import { validateWithoutEval } from '@yidu/shared/browser-validation';

validateWithoutEval();
