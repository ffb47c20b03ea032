#include "CLinux.h"
