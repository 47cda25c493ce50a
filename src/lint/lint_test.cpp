#include <gtest/gtest.h>
TEST(Lint, Placeholder) {}
