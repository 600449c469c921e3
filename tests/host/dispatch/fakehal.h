/* fakehal.h — controls of the native hal stand-in (fakehal.c). */
#ifndef KOHAKU_FAKEHAL_H
#define KOHAKU_FAKEHAL_H
#include <stdint.h>
#include "kmodel.h"
extern struct km_model *fh_model;
/* A fresh model with this unit map (NULL: the default map). */
void fh_start(const char *units);
void fh_advance(uint64_t ns);
#endif
