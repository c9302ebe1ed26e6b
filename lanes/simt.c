/* placeholder: being written */
#include <stddef.h>
