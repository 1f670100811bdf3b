# A consumer of the installed package: find_package(exactvmaf), both targets.
cmake_minimum_required(VERSION 3.25)
project(consumer C)
find_package(exactvmaf 0.1 REQUIRED)
add_executable(score_shared score_pair.c)
target_link_libraries(score_shared PRIVATE exactvmaf::exactvmaf)
add_executable(score_static score_pair.c)
target_link_libraries(score_static PRIVATE exactvmaf::exactvmaf_static)
