import os
import re

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.files import copy, load
from conan.tools.layout import basic_layout


class SemfpConan(ConanFile):
    name = "semfp"
    description = "Header-only near-duplicate detection for Chinese text with semantic fingerprints"
    license = "MIT"
    url = "https://github.com/semfp/semfp"
    homepage = "https://github.com/semfp/semfp"
    topics = ("simhash", "near-duplicate", "chinese", "deduplication", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    exports_sources = "include/*", "LICENSE", "CMakeLists.txt"
    no_copy_source = True

    def set_version(self):
        # CMakeLists.txt's project(semfp VERSION x.y.z) is the single source of the version.
        text = load(self, os.path.join(self.recipe_folder, "CMakeLists.txt"))
        self.version = re.search(r"project\(semfp\s+VERSION\s+(\d+\.\d+\.\d+)", text).group(1)

    def layout(self):
        basic_layout(self, src_folder=".")

    def validate(self):
        check_min_cppstd(self, 20)

    def package_id(self):
        self.info.clear()

    def build(self):
        pass

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        copy(self, "*.hpp", os.path.join(self.source_folder, "include"), os.path.join(self.package_folder, "include"))
        copy(self, "LICENSE*", os.path.join(self.source_folder, "include"), os.path.join(self.package_folder, "licenses"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "semfp")
        self.cpp_info.set_property("cmake_target_name", "semfp::semfp")
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
